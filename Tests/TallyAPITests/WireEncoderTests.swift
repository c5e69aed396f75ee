import Foundation
import Testing
@testable import TallyAPI
import TallyCore

/// The API's JSON writer against Foundation's `JSONEncoder` set up as the API wrote it before:
/// the same bytes for every kind of value, so no client can tell them apart.
@Suite("The API's JSON writer")
struct WireEncoderTests {
    /// `JSONEncoder` as the API used it, the reference.
    static let reference: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(InternetTime.utcSeconds(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func expectSame<Value: Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = String(decoding: try Self.reference.encode(value), as: UTF8.self)
        let written = String(decoding: try WireEncoder().encode(value), as: UTF8.self)
        #expect(written == expected, sourceLocation: sourceLocation)
    }

    /// Hostile text: every control character, quotes, backslashes, slashes, bidi overrides,
    /// combining marks, line separators, a lone NUL and characters outside the BMP.
    static let hostile: [String] = [
        "", "plain", "\"quoted\" and \\back\\slashed\\", "a/b</script>", String((0..<32).map { Character(UnicodeScalar(UInt8($0))) }),
        "\u{202E}evil\u{202C}\u{2066}\u{2069}", "e\u{301}\u{301}\u{301}", "line\u{2028}para\u{2029}", "nul\u{0}inside",
        "🦦👩‍👩‍👧", "\u{7F}\u{85}\u{FEFF}", "日本語 العربية",
    ]

    @Test("Strings, hostile ones too, are escaped as JSONEncoder escapes them")
    func strings() throws {
        for text in Self.hostile {
            try expectSame(text)
            try expectSame([text: text])
            try expectSame([text])
        }
    }

    @Test("Numbers are written as JSONEncoder writes them, and one that is not finite is refused")
    func numbers() throws {
        let doubles: [Double] = [0, -0.0, 1, -1, 0.1, 250, 0.85, 1.5, 123_456_789.125, 1e15, 1e16, 9_007_199_254_740_992,
                                 9_007_199_254_740_994, 1e-7, 5e-324, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                 1 / 3, 2.0 / 3, 100.0 / 7, 1e7, 16_777_215, 16_777_216, 16_777_217, 9_007_199_254_740_991, 4_503_599_627_370_497, 33.333333333333336, 1e21, 1e22, 123e300]
        try expectSame(doubles)
        try expectSame(doubles.map(Float.init).filter(\.isFinite))
        try expectSame([Int.min, -1, 0, 7, Int.max])
        try expectSame([Int8.min, Int8.max])
        try expectSame([UInt64.max, 0])
        try expectSame([Int32.min: UInt16.max])
        try expectSame([Decimal(string: "12.50")!, Decimal(string: "-0.000001")!, Decimal(1_000_000)])
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: EncodingError.self) { try WireEncoder().encode(["volumeMl": bad]) }
        }
        // The refusal says where the number lies, as JSONEncoder's does.
        let error = try #require(throws: EncodingError.self) { try WireEncoder().encode(["days": [["ml": 1], ["ml": .nan]]]) }
        guard case .invalidValue(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["days", "Index 1", "ml"])
    }

    @Test("Random numbers and random text are written alike")
    func random() throws {
        var doubles: [Double] = []
        while doubles.count < 5_000 {
            let value = Double(bitPattern: UInt64.random(in: .min ... .max))
            if value.isFinite { doubles.append(value) }
        }
        try expectSame(doubles)
        try expectSame((0..<2_000).map { _ in Double(Int.random(in: -1_000_000...1_000_000)) / 100 })
        let scalars = (0..<500).map { _ in
            String(String.UnicodeScalarView((0..<12).compactMap { _ in UnicodeScalar(UInt32.random(in: 0...0x2FFFF)) }))
        }
        try expectSame(scalars)
        try expectSame((0..<200).map { _ in UUID() } + [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))])
    }

    @Test("Keys are sorted by their bytes, and a key set twice keeps its last value")
    func keys() throws {
        try expectSame(["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "": 6, "a\u{0}": 7, "Z": 8, "_": 9])
        try expectSame(Twice())
        try expectSame([1: "one", 10: "ten", 2: "two"])
    }

    @Test("Every kind of container, nil and absence, instants, data, addresses, and a super encoder")
    func containers() throws {
        try expectSame(Everything())
        try expectSame(Everything?.none)
        try expectSame([Everything(), Everything()])
        try expectSame([Empty()])
        #expect(throws: EncodingError.self) { try WireEncoder().encode(Empty()) }
        try expectSame(true)
        try expectSame("top")
    }

    @Test("A value that writes itself refuses a number that is not finite, as JSONEncoder does")
    func writerRefusesNonFinite() {
        var json = JSONWriter()
        #expect(throws: EncodingError.self) { try json.number(.nan) }
        #expect(throws: EncodingError.self) { try json.number(-.infinity) }
        #expect(throws: Never.self) { try json.number(nil) }
        #expect(json.bytes == Array("null".utf8))
    }

    @Test("The API's own answers: a day with drinks and a removal, a problem")
    func answers() throws {
        let day = LocalDate(year: 2025, month: 6, day: 10)!
        let at = Date(timeIntervalSince1970: 1_749_542_400.4999)
        var entries: [DayEntry] = Self.hostile.enumerated().map { index, note in
            .intake(Intake(id: UUID(), at: at + Double(index) * 61.7, day: day, volumeMl: 250 + Double(index) / 3,
                           kind: DrinkKind(name: "coffee", factor: 0.85), note: note, source: .manual))
        }
        entries.append(.removal(Removal(id: UUID(), at: at, day: day, volumeMl: 50)))
        entries.append(.intake(Intake(id: UUID(), at: at, day: day, volumeMl: 1e-7, kind: DrinkKind(name: "water", factor: 1),
                                      note: nil, source: .import)))
        // A day writes itself (WireWritable): the same text as its encode(to:) through JSONEncoder.
        try expectSame(DaySummary(date: day, entries: entries, goal: .default, unit: .ml))
        try expectSame(DaySummary(date: day, entries: [], goal: Goal(mode: .none, targetMl: nil), unit: .oz))
        // A drink's answer, and a delete's, write themselves too.
        let progress = DayProgress(date: day, totalMl: 812.5, goal: .default)
        let noGoal = DayProgress(date: day, totalMl: 0, goal: Goal(mode: .none, targetMl: nil))
        for entry in entries.suffix(3) {
            try expectSame(EntryResult(created: true, entry: entry, day: progress, unit: .oz))
            try expectSame(DeletedEntry(deleted: entry, day: noGoal))
        }
        try expectSame(Problem(title: "Unprocessable", status: 422, detail: "volumeMl must be between 1 and 5000 \u{202E}", field: "volumeMl"))
    }
}

private struct Twice: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireIndex.self)
        try container.encode(1, forKey: WireIndex("key"))
        try container.encode("last", forKey: WireIndex("key"))
        try container.encode(true, forKey: WireIndex("other"))
    }
}

private struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

private struct Everything: Encodable {
    var text = "text"
    var missing: String? = nil
    var number = 2.5
    var flag = false
    var when = Date(timeIntervalSince1970: 1_700_000_000.999)
    var bytes = Data([0, 1, 2, 250, 255])
    var address = URL(string: "https://example.com/a?b=c&d=/e")!
    var nested = [[1, 2], [], [3]]
    var table: [String: [String: Double?]] = ["x": ["y": nil, "z": 1]]

    enum Keys: String, CodingKey { case text, missing, number, flag, when, bytes, address, nested, table, inner, list, explicitNull }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(missing, forKey: .missing)
        try container.encodeNil(forKey: .explicitNull)
        try container.encode(number, forKey: .number)
        try container.encode(flag, forKey: .flag)
        try container.encode(when, forKey: .when)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(address, forKey: .address)
        try container.encode(nested, forKey: .nested)
        try container.encode(table, forKey: .table)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        try inner.encode(1, forKey: .number)
        var list = inner.nestedUnkeyedContainer(forKey: .list)
        try list.encode("a")
        try list.encodeNil()
        var deeper = list.nestedContainer(keyedBy: Keys.self)
        try deeper.encode(when, forKey: .when)
        var deepest = list.nestedUnkeyedContainer()
        try deepest.encode(Int8(-3))
        try list.encode(UInt8(200))
        try "in super".encode(to: container.superEncoder())
        try [1, 2].encode(to: container.superEncoder(forKey: .list))
    }
}
