import CSV
import Foundation
import PropertyBased
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyRepositories
import TallyServices
import TallyStore
import Testing

/// A2: a person's drinks and removals as CSV. What Tally writes reads back as the same entries
/// (into another person, in another database), plain files of other apps read as drinks, and a
/// file with anything wrong is refused whole, naming the line and the column.
@Suite("Drink CSV export and import (A2)")
struct DrinkCSVTests {
    // MARK: - Support

    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// The injected "now" of every test: after every row the tests write.
    static let now = instant("2026-06-01T10:00:00Z")
    static let header = DrinkCSV.columns.joined(separator: ",")

    static func instant(_ text: String) -> Date {
        guard let date = InternetTime.instant(text) else { fatalError("bad instant literal in a test: \(text)") }
        return date
    }

    static func day(_ text: String) -> LocalDate {
        guard let date = LocalDate(text) else { fatalError("bad date literal in a test: \(text)") }
        return date
    }

    static func id(_ number: Int) -> UUID {
        let digits = String(number)
        return UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
    }

    /// A person in `store` (a new in-memory database unless given), with the injected clock.
    static func person(_ name: String = "ada", zone: String = "Europe/Paris", in store: SQLiteStore? = nil,
                       now: Date = DrinkCSVTests.now) async throws -> HydrationService {
        let store = try store ?? SQLiteStore.inMemory()
        let directory = UserDirectory(store: store, clock: FixedClock(now))
        return directory.hydration(for: try await directory.user(named: name, timeZone: zone))
    }

    static func stream(_ text: String) -> InputStream { InputStream(data: Data(text.utf8)) }

    @discardableResult
    static func importing(_ text: String, into hydration: HydrationService, unit: VolumeUnit? = nil) async throws -> DrinkCSVImportReport {
        try await DrinkCSVImporter(hydration: hydration).importCSV(stream(text), unit: unit)
    }

    @discardableResult
    static func importing(data: Data, into hydration: HydrationService, unit: VolumeUnit? = nil) async throws -> DrinkCSVImportReport {
        try await DrinkCSVImporter(hydration: hydration).importCSV(InputStream(data: data), unit: unit)
    }

    /// Every entry of the person, day by day, in the order they happened.
    static func entries(of hydration: HydrationService) async throws -> [DayEntry] {
        try await hydration.store.entries(from: day("1970-01-01"), through: day("2100-12-31"), of: hydration.user)
    }

    static func intakes(of hydration: HydrationService) async throws -> [Intake] {
        try await entries(of: hydration).compactMap { entry -> Intake? in
            if case .intake(let intake) = entry { return intake }
            return nil
        }
    }

    /// What Tally's export writes for the person: the header and every entry, in the person's zone.
    static func export(_ hydration: HydrationService) async throws -> Data {
        let zone = try await hydration.settings().zone
        return DrinkCSV.header() + DrinkCSV.rows(try await entries(of: hydration), zone: zone)
    }

    /// Reads a file without a store, as `DrinkCSVImporter` does, in Paris.
    static func read(_ text: String, unit: VolumeUnit? = nil, zone: TimeZone = paris, user: UUID = id(999)) throws -> [DrinkCSV.Row] {
        try DrinkCSV.read(stream(text), zone: zone, now: now, unit: unit, user: user)
    }

    /// "Nothing was imported: 1 line is wrong." and the line's sentence.
    static func oneLineWrong(_ sentence: String) -> TallyError {
        TallyError.invalid(.verbatim("Nothing was imported: 1 line is wrong.\n" + sentence))
    }

    /// Two entries are the same but for the id of the kind (each person has their own kinds).
    static func same(_ a: DayEntry, _ b: DayEntry) -> Bool {
        switch (a, b) {
        case (.intake(var a), .intake(let b)):
            a.kindID = b.kindID
            return a == b
        case (.removal(let a), .removal(let b)):
            return a == b
        default:
            return false
        }
    }

    /// A refused import changed nothing: no entry, and only the seven built-in kinds.
    static func expectUntouched(_ hydration: HydrationService, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await entries(of: hydration).isEmpty, sourceLocation: sourceLocation)
        #expect(try await hydration.drinkKinds().map(\.name).sorted() == ["coffee", "juice", "milk", "other", "soda", "tea", "water"],
                sourceLocation: sourceLocation)
    }

    /// Notes that a CSV and a spreadsheet find hard: separators, quotes, line breaks, right-to-left
    /// marks, combining marks, emoji sequences and formula starts. Each is a note a person may
    /// store (bidi overrides are refused at logging: see `bidiOverrideNote`).
    static let hostileNotes: [String] = [
        "Lunch, with Sam, Kim and Lee",
        "She said \"hi\" and \"bye\"",
        "\"",
        ",",
        "line one\nline two\nline three",
        "windows\r\nline",
        "old mac\rline",
        "\u{200F}שלום\u{200E} and مرحبا",
        "Z\u{0351}\u{0346}a\u{0300}\u{0301}l\u{0317}g\u{0362}o",
        "Cafe\u{0301} au lait",
        "=HYPERLINK(\"http://evil.example\",\"click me\")",
        "=1+1",
        "+33 6 12 34 56 78",
        "-2 from the bottle",
        "@SUM(A1:A9)",
        "'quoted already",
        "''two",
        "'",
        "\t=cmd|' /C calc'!A0",
        "\r\n-1",
        "👩‍👩‍👧 family; flag 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
        "Sp\u{200D}ace and zero\u{200B}width",
        String(repeating: "ab, \"c\"\n", count: 55),
        "tab\tinside",
        "   spaced   ",
        "x\u{2028}y",
    ]

    /// Amounts in ml, fractional ones included (8 and 12.5 fl oz).
    static let volumes: [Double] = [250, 330, 500, 187.5, VolumeUnit.oz.toMilliliters(8), VolumeUnit.oz.toMilliliters(12.5),
                                    33.3, 0.5, 1000, 5000, 212.75]

    static let mate = "Mate\u{0301} \"cocido\", hot"

    /// A person with two years of drinks (2024-05-01 to 2026-05-31) in Paris: the built-in kinds, a
    /// custom kind whose name needs quoting, one that starts with "=", one with "'", and one retired
    /// in February 2025; coffee's factor changed on 2025-01-01; three weeks logged in New York;
    /// removals; the spring and autumn DST days with drinks at their edges.
    static func generatedPerson(in store: SQLiteStore) async throws -> HydrationService {
        let ada = try await person("ada", in: store)
        var random = Xoshiro(seed: (20_240_501, 1, 2, 3))
        try await ada.addDrinkKind(name: mate, factor: 0.92)
        try await ada.addDrinkKind(name: "Oat latte", factor: 0.8)
        try await ada.addDrinkKind(name: "=Kvass", factor: 0.9)
        try await ada.addDrinkKind(name: "'Tick tock", factor: 1.2)
        var kinds = ["water", "water", "water", "coffee", "tea", "juice", "milk", "soda", "other",
                     "Maté \"cocido\", hot", "Oat latte", "=Kvass", "'Tick tock"]
        var zone = paris
        var current = day("2024-05-01")
        while current <= day("2026-05-31") {
            switch current {
            case day("2024-11-01"):
                _ = try await ada.setTimeZone("America/New_York")
                zone = newYork
            case day("2024-11-21"):
                _ = try await ada.setTimeZone("Europe/Paris")
                zone = paris
            case day("2025-01-01"):
                try await ada.setFactor(of: "coffee", to: 0.9)
            case day("2025-02-01"):
                try await ada.retireDrinkKind("Oat latte")
                kinds.removeAll { $0 == "Oat latte" }
            default: break
            }
            let calendar = Calendar.gregorian(zone)
            var times: [Date] = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                let minute = Int.random(in: (7 * 60)..<(22 * 60 + 30), using: &random)
                let local = calendar.date(from: DateComponents(year: current.year, month: current.month, day: current.day,
                                                               hour: minute / 60, minute: minute % 60,
                                                               second: Int.random(in: 0...59, using: &random)))!
                // Some drinks were logged to the millisecond.
                return Int.random(in: 0..<5, using: &random) == 0 ? local + Double(Int.random(in: 1...999, using: &random)) / 1000 : local
            }
            switch current {
            case day("2025-03-30"):
                times += [instant("2025-03-30T01:59:59.500+01:00"), instant("2025-03-30T03:00:00+02:00")]
            case day("2025-10-26"):
                times += [instant("2025-10-26T02:30:00+02:00"), instant("2025-10-26T02:30:00+01:00")]
            default: break
            }
            var total = 0.0
            for time in times.sorted() {
                let note = Int.random(in: 0..<3, using: &random) == 0 ? hostileNotes.randomElement(using: &random) : nil
                let drink = try await ada.logDrink(.init(volumeMl: volumes.randomElement(using: &random)!,
                                                         kindName: kinds.randomElement(using: &random)!, at: time, note: note))
                total += drink.intake.effectiveMl
            }
            if current == day("2025-10-26") || Int.random(in: 0..<8, using: &random) == 0 {
                try await ada.remove(volumeMl: min(120.25, total / 2), at: times.max()! + 600)
            }
            current = current.adding(days: 1)
        }
        return ada
    }

    // MARK: - Round trip

    @Test("A2: two years of drinks and removals exported and imported into a new person: every entry, day total, kind and factor the same; the file the copy exports is byte for byte the same")
    func roundTrip() async throws {
        let ada = try await Self.generatedPerson(in: try SQLiteStore.inMemory())
        let source = try await Self.entries(of: ada)
        let drinks = source.filter { if case .intake = $0 { true } else { false } }.count
        let removals = source.count - drinks
        #expect(drinks > 1500 && removals > 50, "the generated person has \(drinks) drinks and \(removals) removals")
        // The generated data has what the round trip must carry.
        let intakes = try await Self.intakes(of: ada)
        #expect(Set(intakes.map(\.kindName)).isSuperset(of: ["Maté \"cocido\", hot", "Oat latte", "=Kvass", "'Tick tock", "coffee"]))
        #expect(Set(intakes.filter { $0.kindName == "coffee" }.map(\.factor)) == [0.85, 0.9])
        #expect(intakes.contains { $0.volumeMl != $0.volumeMl.rounded() })
        #expect(intakes.contains { $0.day != LocalDate(containing: $0.at, in: Self.paris) }, "New York days differ from Paris days")
        #expect(try await ada.drinkKinds().first { $0.name == "Oat latte" }?.isRetired == true)

        let file = try await Self.export(ada)
        // The export as the app streams it, a few weeks at a time, is the same file.
        var streamed = Data()
        var pieces = 0
        try await DrinkCSV.export(ada) { streamed += $0; pieces += 1 }
        #expect(streamed == file)
        #expect(pieces > 20)
        // In another database (the ids are the person's: another person of the same database
        // could not take them).
        let bea = try await Self.person("bea", in: try SQLiteStore.inMemory())
        let report = try await Self.importing(data: file, into: bea)
        #expect(report.drinksAdded == drinks)
        #expect(report.removalsAdded == removals)
        #expect(report.alreadyThere == 0)
        #expect(Set(report.newKinds) == ["Maté \"cocido\", hot", "Oat latte", "=Kvass", "'Tick tock"])
        #expect(report.newKinds.count == 4)

        let copy = try await Self.entries(of: bea)
        #expect(copy.count == source.count)
        let different = zip(source, copy).filter { !Self.same($0, $1) }
        #expect(different.isEmpty, "\(different.count) entries differ; the first: \(String(describing: different.first))")

        let sourceTotals = try await ada.store.dailyTotals(of: ada.user, from: nil, through: nil)
        let copyTotals = try await bea.store.dailyTotals(of: bea.user, from: nil, through: nil)
        #expect(sourceTotals.count > 700)
        #expect(copyTotals == sourceTotals)
        for checked in [Self.day("2025-03-30"), Self.day("2025-10-26"), Self.day("2024-11-10"), Self.day("2026-05-31")] {
            #expect(try await bea.daySummary(on: checked).totalMl == (try await ada.daySummary(on: checked).totalMl), "\(checked)")
        }

        // The kinds: the new ones with the factor the file gave, the built-in ones as they were;
        // each drink keeps the factor it was logged with.
        let kinds = Dictionary(uniqueKeysWithValues: try await bea.drinkKinds().map { ($0.name, $0) })
        #expect(kinds["Maté \"cocido\", hot"]?.factor == 0.92)
        #expect(kinds["Oat latte"]?.factor == 0.8)
        #expect(kinds["=Kvass"]?.factor == 0.9)
        #expect(kinds["'Tick tock"]?.factor == 1.2)
        #expect(kinds["coffee"]?.factor == 0.85)
        let copied = try await Self.intakes(of: bea)
        #expect(copied.allSatisfy { kinds[$0.kindName]?.id == $0.kindID }, "every drink is of the new person's kind of that name")
        #expect(copied.map(\.factor) == intakes.map(\.factor))
        #expect(copied.map(\.effectiveMl) == intakes.map(\.effectiveMl))

        // What the copy exports is the same file.
        #expect(try await Self.export(bea) == file)

        // Importing the same file again adds nothing, in the copy and in the person it came from.
        let again = try await Self.importing(data: file, into: bea)
        #expect(again == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: source.count, newKinds: []))
        #expect(again.sentences == ["Imported 0 drinks and 0 removals.", "\(source.count) entries were there already."])
        #expect(try await Self.entries(of: bea).count == source.count)
        #expect(try await bea.drinkKinds().count == 7 + 4)
        let home = try await Self.importing(data: file, into: ada)
        #expect(home == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: source.count, newKinds: []))
    }

    @Test("A2: the columns Tally writes, on Paris's DST days: offsets of each side of the change, fractions, quoting, removals")
    func writtenColumns() async throws {
        let ada = try await Self.person("ada", now: Self.now)
        try await ada.logDrink(.init(volumeMl: 250, kindName: "coffee", at: Self.instant("2025-10-26T00:30:00Z"),
                                     note: "Lunch, \"big\"", id: Self.id(1)))
        try await ada.logDrink(.init(volumeMl: VolumeUnit.oz.toMilliliters(8), at: Self.instant("2025-10-26T01:30:00Z"),
                                     note: "=1+1", id: Self.id(2)))
        try await ada.remove(volumeMl: 100, at: Self.instant("2025-10-26T01:45:00Z"), id: Self.id(3))
        try await ada.logDrink(.init(volumeMl: 187.5, at: Self.instant("2025-03-30T00:59:59.5Z"), id: Self.id(4)))
        try await ada.logDrink(.init(volumeMl: 500, kindName: "tea", at: Self.instant("2025-03-30T01:00:00Z"),
                                     note: "line1\nline2", id: Self.id(5)))
        let text = String(decoding: try await Self.export(ada), as: UTF8.self)
        #expect(text == [
            "time,day,type,volume_ml,kind,factor,effective_ml,note,source,id",
            "2025-03-30T01:59:59.5+01:00,2025-03-30,drink,187.5,water,1,187.5,,manual,00000000-0000-4000-8000-000000000004",
            "2025-03-30T03:00:00+02:00,2025-03-30,drink,500,tea,0.95,475,\"line1\nline2\",manual,00000000-0000-4000-8000-000000000005",
            "2025-10-26T02:30:00+02:00,2025-10-26,drink,250,coffee,0.85,212.5,\"Lunch, \"\"big\"\"\",manual,00000000-0000-4000-8000-000000000001",
            "2025-10-26T02:30:00+01:00,2025-10-26,drink,236.588,water,1,236.588,'=1+1,manual,00000000-0000-4000-8000-000000000002",
            "2025-10-26T02:45:00+01:00,2025-10-26,removal,100,,,-100,,,00000000-0000-4000-8000-000000000003",
        ].joined(separator: "\r\n") + "\r\n")
        #expect(DrinkCSV.header() == Data("time,day,type,volume_ml,kind,factor,effective_ml,note,source,id\r\n".utf8))
        #expect(DrinkCSV.mediaType == "text/csv; charset=utf-8")

        // Read back: the two 02:30s of the autumn night are two instants an hour apart.
        let rows = try Self.read(text)
        #expect(rows.map(\.at) == [Self.instant("2025-03-30T00:59:59.5Z"), Self.instant("2025-03-30T01:00:00Z"),
                                   Self.instant("2025-10-26T00:30:00Z"), Self.instant("2025-10-26T01:30:00Z"),
                                   Self.instant("2025-10-26T01:45:00Z")])
        #expect(rows.map(\.line) == [2, 3, 5, 6, 7], "the quoted line break takes a line")
        #expect(rows.map(\.note) == [nil, "line1\nline2", "Lunch, \"big\"", "=1+1", nil])
        #expect(rows.map(\.type) == [.drink, .drink, .drink, .drink, .removal])
        #expect(rows.map(\.factor) == [1, 0.95, 0.85, 1, nil])
        #expect(rows.map(\.id) == [4, 5, 1, 2, 3].map(Self.id))
        #expect(rows.allSatisfy { $0.source == .manual || $0.type == .removal })
    }

    // MARK: - Formula escaping

    static let formulaKinds = ["=Kvass", "+Plus", "-Minus", "@At", "'Tick"]
    static let formulaNotes = ["=1+1", "+1", "-1", "@x", "'x", "''y", "\t=tab first", "\r\n+crlf first", "=HYPERLINK(\"http://x\",\"a, b\")", "-\n-"]

    /// The characters a spreadsheet reads a cell starting with as a formula (and `'`, escaped too).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\n"]

    /// The cells of a CSV, as a spreadsheet reads them (RFC 4180).
    static func cells(_ data: Data) throws -> [[String]] {
        try CSVReader(string: String(decoding: data, as: UTF8.self), hasHeaderRow: false).map { $0 }
    }

    @Test("A2: every text cell that starts with = + - @ tab or a line break is written with a leading apostrophe, and reads back exactly")
    func formulaEscaping() async throws {
        let ada = try await Self.person("ada")
        for (index, name) in Self.formulaKinds.enumerated() {
            try await ada.addDrinkKind(name: name, factor: 0.5 + Double(index) / 10)
        }
        for (index, note) in Self.formulaNotes.enumerated() {
            try await ada.logDrink(.init(volumeMl: 100, kindName: Self.formulaKinds[index % Self.formulaKinds.count],
                                         at: Self.instant("2025-05-01T08:00:00Z") + Double(index * 60), note: note))
        }
        try await ada.remove(volumeMl: 10, at: Self.instant("2025-05-01T09:00:00Z"))
        let file = try await Self.export(ada)
        let rows = try Self.cells(file)
        #expect(rows.count == 1 + Self.formulaNotes.count + 1)
        for row in rows.dropFirst() {
            #expect(row.count == 10)
            for cell in row where Double(cell) == nil {
                if let first = cell.unicodeScalars.first, Self.formulaStarts.contains(first) {
                    Issue.record("a cell a spreadsheet would run: \(cell.debugDescription)")
                }
            }
        }
        for row in rows[1...Self.formulaNotes.count] {
            #expect(row[4].hasPrefix("'"), "every kind name here needs escaping: \(row[4])")
            #expect(row[7].hasPrefix("'"), "every note here needs escaping: \(row[7])")
        }
        #expect(rows[1][7] == "'=1+1" && rows[1][4] == "'=Kvass")
        #expect(rows[5][7] == "''x" && rows[5][4] == "''Tick")
        #expect(rows[6][7] == "'''y")
        // Notes are trimmed when they are logged: a leading tab or line break is not kept.
        #expect(rows[7][7] == "'=tab first")
        #expect(rows[8][7] == "'+crlf first")
        #expect(rows[11][6] == "-10", "a removal's effective amount is a number, not text")

        // Read back into another person: exactly the names and notes that were stored.
        let bea = try await Self.person("bea")
        let report = try await Self.importing(data: file, into: bea)
        #expect(report.newKinds == Self.formulaKinds)
        let stored = try await Self.intakes(of: ada), copied = try await Self.intakes(of: bea)
        #expect(copied.map(\.note) == stored.map(\.note))
        #expect(copied.map(\.note) == ["=1+1", "+1", "-1", "@x", "'x", "''y", "=tab first", "+crlf first", "=HYPERLINK(\"http://x\",\"a, b\")", "-\n-"])
        #expect(copied.map(\.kindName) == stored.map(\.kindName))
        #expect(Set(try await bea.drinkKinds().map(\.name)).isSuperset(of: Self.formulaKinds))
    }

    @Test("A2: a note or kind whose formula character carries a combining mark (\"=\\u{301}…\") is escaped too: a spreadsheet reads the \"=\"")
    func formulaEscapingWithCombiningMark() async throws {
        let ada = try await Self.person("ada")
        try await ada.addDrinkKind(name: "=\u{0301}Kvass", factor: 0.9)
        let notes = ["=\u{0301}HYPERLINK(\"http://evil.example\",\"x\")", "-\u{20DD}2+3", "@\u{FE0F}SUM(A1)", "+\u{0308}1"]
        for (index, note) in notes.enumerated() {
            try await ada.logDrink(.init(volumeMl: 100, kindName: "=\u{0301}Kvass", at: Self.instant("2025-05-01T08:00:00Z") + Double(index), note: note))
        }
        let file = try await Self.export(ada)
        for row in try Self.cells(file).dropFirst() {
            for cell in [row[4], row[7]] {
                #expect(cell.unicodeScalars.first == "'", "a spreadsheet runs \(cell.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: " "))")
            }
        }
        // Whatever it writes, it reads back exactly.
        let bea = try await Self.person("bea")
        try await Self.importing(data: file, into: bea)
        #expect(try await Self.intakes(of: bea).map(\.note) == notes)
        #expect(try await Self.intakes(of: bea).allSatisfy { $0.kindName == "=\u{0301}Kvass" })
    }

    @Test("A2: SpreadsheetCell escapes = + - @ tab CR LF and ' with one apostrophe, and `typed` takes exactly one off")
    func spreadsheetCell() {
        let cases: [(String, String)] = [
            ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@x", "'@x"), ("\tx", "'\tx"), ("\rx", "'\rx"),
            ("\nx", "'\nx"), ("\r\nx", "'\r\nx"), ("'x", "''x"), ("''", "'''"), ("'", "''"),
            ("x=1", "x=1"), (" =1", " =1"), ("", ""), ("Zoë", "Zoë"), ("1-2", "1-2"),
        ]
        for (text, cell) in cases {
            #expect(SpreadsheetCell.safe(text) == cell, "\(text.debugDescription)")
            #expect(SpreadsheetCell.typed(SpreadsheetCell.safe(text)) == text, "\(text.debugDescription)")
        }
        #expect(SpreadsheetCell.typed("'=1") == "=1")
        #expect(SpreadsheetCell.typed("plain") == "plain")
    }

    @Test("A2: rows of entries never checked (a note starting with a tab or CR) are escaped; reading them gives the note as it would be stored")
    func uncheckedNotes() throws {
        let kind = DrinkKind(name: "@tea", factor: 0.95)
        let notes = ["\t=1+1", "\r=2", "\r\n=3", "\n@4"]
        let entries = notes.enumerated().map { index, note in
            DayEntry.intake(Intake(id: Self.id(index + 1), at: Self.instant("2025-05-01T08:00:00Z") + Double(index * 60),
                                   day: Self.day("2025-05-01"), volumeMl: 200, kind: kind, note: note, source: .bottle))
        }
        let data = DrinkCSV.header() + DrinkCSV.rows(entries, zone: Self.paris)
        let rows = try Self.cells(data)
        #expect(rows.dropFirst().map { $0[7] } == ["'\t=1+1", "'\r=2", "'\r\n=3", "'\n@4"])
        #expect(rows.dropFirst().map { $0[4] } == Array(repeating: "'@tea", count: 4))
        let read = try Self.read(String(decoding: data, as: UTF8.self))
        #expect(read.map(\.note) == (try notes.map { try Intake.validate(note: $0) }))
        #expect(read.map(\.note) == ["=1+1", "=2", "=3", "@4"])
        #expect(read.map(\.kindName) == Array(repeating: "@tea", count: 4))
        #expect(read.map(\.source) == Array(repeating: .bottle, count: 4))
        #expect(read.map(\.line) == [2, 3, 5, 7])
    }

    // MARK: - Plain files of other apps

    @Test("A2: a plain date,time,amount,unit file: local times in the person's zone, ml and oz rows, 12-hour clocks")
    func plainFile() async throws {
        let ada = try await Self.person("ada")
        let file = """
            date,time,amount,unit
            2025-03-30,08:15,250,ml
            2025-03-30,8:15 pm,8,oz
            2025-03-31,07:05:30,12.5,fl oz
            2025-03-31,12:30 am,330,mL

            """
        let report = try await Self.importing(file, into: ada)
        #expect(report == DrinkCSVImportReport(drinksAdded: 4, removalsAdded: 0, alreadyThere: 0, newKinds: []))
        #expect(report.sentences == ["Imported 4 drinks and 0 removals."])
        let drinks = try await Self.intakes(of: ada)
        #expect(drinks.map(\.at) == [Self.instant("2025-03-30T06:15:00Z"), Self.instant("2025-03-30T18:15:00Z"),
                                     Self.instant("2025-03-30T22:30:00Z"), Self.instant("2025-03-31T05:05:30Z")])
        #expect(drinks.map(\.day) == [Self.day("2025-03-30"), Self.day("2025-03-30"), Self.day("2025-03-31"), Self.day("2025-03-31")])
        #expect(drinks.map(\.volumeMl) == [250, 8 * 29.5735, 330, 12.5 * 29.5735])
        #expect(drinks.allSatisfy { $0.kindName == "water" && $0.factor == 1 && $0.source == .import && $0.note == nil })
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 250 + 8 * 29.5735)

        // Again: the ids made from the rows are the same, so nothing is added twice.
        let again = try await Self.importing(file, into: ada)
        #expect(again == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: 4, newKinds: []))
        #expect(again.sentences == ["Imported 0 drinks and 0 removals.", "4 entries were there already."])
        #expect(try await Self.intakes(of: ada).map(\.id) == drinks.map(\.id))

        // The same file for another person of the same database: their own ids, no conflict.
        let bea = try await Self.person("bea", in: ada.store as? SQLiteStore)
        #expect(try await Self.importing(file, into: bea).drinksAdded == 4)
        #expect(Set(try await Self.intakes(of: bea).map(\.id)).isDisjoint(with: drinks.map(\.id)))
    }

    @Test("A2: two identical rows are two drinks, and still nothing twice on a second import")
    func identicalRows() async throws {
        let ada = try await Self.person("ada")
        let file = "date,time,amount_ml\n2025-03-30,08:15,250\n2025-03-30,08:15,250\n"
        #expect(try await Self.importing(file, into: ada).drinksAdded == 2)
        #expect(try await Self.importing(file, into: ada) == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: 2, newKinds: []))
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 500)
        // One more identical row in the file: one more drink.
        #expect(try await Self.importing(file + "2025-03-30,08:15,250\n", into: ada)
                == DrinkCSVImportReport(drinksAdded: 1, removalsAdded: 0, alreadyThere: 2, newKinds: []))
    }

    @Test("A2: a \"Date,Amount (oz)\" file, with the date and time in one cell")
    func amountOzHeader() async throws {
        let ada = try await Self.person("ada")
        let file = "\u{FEFF}Date,Amount (oz)\r\n2025-03-30 08:15,8\r\n2025-03-30T12:00,16.5\r\n\"2025-03-30 9:05 pm\",\"0,5\"\r\n"
        let report = try await Self.importing(file, into: ada)
        #expect(report.drinksAdded == 3)
        let drinks = try await Self.intakes(of: ada)
        #expect(drinks.map(\.at) == [Self.instant("2025-03-30T06:15:00Z"), Self.instant("2025-03-30T10:00:00Z"), Self.instant("2025-03-30T19:05:00Z")])
        #expect(drinks.map(\.volumeMl) == [8 * 29.5735, 16.5 * 29.5735, 0.5 * 29.5735])

        // A date alone is not a time.
        let bea = try await Self.person("bea")
        await #expect(throws: Self.oneLineWrong("Line 2, column Date: \"2025-03-30\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15).")) {
            try await Self.importing("Date,Amount (oz)\n2025-03-30,8\n", into: bea)
        }
        try await Self.expectUntouched(bea)
    }

    @Test("A2: an amount column that does not say its unit is refused unless a unit is chosen")
    func amountWithoutUnit() async throws {
        let file = "date,time,amount\n2025-03-30,08:15,8\n2025-03-30,09:15,12.5\n"
        let ada = try await Self.person("ada")
        await #expect(throws: TallyError.invalid("Line 1 does not say the unit of \"amount\": name the column amount_ml or amount_oz, add a unit column, or choose the unit (ml or oz).")) {
            try await Self.importing(file, into: ada)
        }
        try await Self.expectUntouched(ada)
        #expect(try await Self.importing(file, into: ada, unit: .oz).drinksAdded == 2)
        #expect(try await Self.intakes(of: ada).map(\.volumeMl) == [8 * 29.5735, 12.5 * 29.5735])
        let bea = try await Self.person("bea")
        #expect(try await Self.importing(file, into: bea, unit: .ml).drinksAdded == 2)
        #expect(try await Self.intakes(of: bea).map(\.volumeMl) == [8, 12.5])
        // A header that says the unit wins over the chosen one.
        #expect(try Self.read("time,amount_ml\n2025-03-30T08:00:00Z,8\n", unit: .oz).map(\.volumeMl) == [8])
    }

    @Test("A2: a Tally time without an offset is local in the person's zone; a removal's kind and note are not read")
    func localTallyTimes() throws {
        let rows = try Self.read("""
            \(Self.header)
            2025-03-30T08:15:00,,drink,250,,,,,,
            2025-03-30T09:00:00,,removal,50,tea,0.95,-50,a note,manual,
            """)
        #expect(rows.map(\.at) == [Self.instant("2025-03-30T06:15:00Z"), Self.instant("2025-03-30T07:00:00Z")])
        #expect(rows[1].kindName == nil && rows[1].note == nil && rows[1].factor == nil && rows[1].type == .removal)
        #expect(rows[0].kindName == nil && rows[0].factor == nil && rows[0].source == .import && rows[0].day == nil)
        let newYork = try Self.read("time,amount_ml\n2025-03-30T08:15:00,250\n", zone: Self.newYork)
        #expect(newYork.map(\.at) == [Self.instant("2025-03-30T12:15:00Z")])
    }

    // MARK: - Kinds

    @Test("A2: kinds by name in any case or composition; a retired kind is found; a new name becomes a kind with the file's factor; each drink keeps its factor")
    func kinds() async throws {
        let ada = try await Self.person("ada")
        try await ada.addDrinkKind(name: "Oat latte", factor: 0.8)
        try await ada.retireDrinkKind("Oat latte")
        let file = """
            time,kind,factor,amount_ml,note
            2025-03-30T08:00:00+02:00,Kvass,0.9,500,
            2025-03-30T09:00:00+02:00,KVASS,0.7,100,
            2025-03-30T10:00:00+02:00,COFFEE,0.8,250,
            2025-03-30T11:00:00+02:00,Birch sap,,200,
            2025-03-30T12:00:00+02:00,,,300,
            2025-03-30T13:00:00+02:00,oat LATTE,,100,
            2025-03-30T14:00:00+02:00,Mate\u{0301},,100,
            2025-03-30T15:00:00+02:00,Mat\u{00E9},1.1,100,second
            """
        let report = try await Self.importing(file, into: ada)
        #expect(report == DrinkCSVImportReport(drinksAdded: 8, removalsAdded: 0, alreadyThere: 0, newKinds: ["Kvass", "Birch sap", "Maté"]))
        #expect(report.sentences == ["Imported 8 drinks and 0 removals.", "New drink kinds: Kvass, Birch sap, Maté."])
        let kinds = try await ada.drinkKinds()
        #expect(kinds.count == 7 + 1 + 3)
        #expect(kinds.first { $0.name == "Kvass" }?.factor == 0.9)
        #expect(kinds.first { $0.name == "Birch sap" }?.factor == 1)
        #expect(kinds.first { $0.name == "Maté" }?.factor == 1)
        #expect(kinds.first { $0.name == "coffee" }?.factor == 0.85, "the file's factor is the drink's, not the kind's")
        let drinks = try await Self.intakes(of: ada)
        #expect(drinks.map(\.kindName) == ["Kvass", "Kvass", "coffee", "Birch sap", "water", "Oat latte", "Maté", "Maté"])
        #expect(drinks.map(\.factor) == [0.9, 0.7, 0.8, 1, 1, 0.8, 1, 1.1])
        let effective: [Double] = [500 * 0.9, 100 * 0.7, 250 * 0.8, 200, 300, 100 * 0.8, 100, 100 * 1.1]
        #expect(drinks.map(\.effectiveMl) == effective)
        let latte = try #require(kinds.first { $0.name == "Oat latte" })
        #expect(latte.isRetired && drinks[5].kindID == latte.id, "the retired kind, not a new one")
        #expect(drinks[6].kindID == drinks[7].kindID)
        #expect(drinks.last?.note == "second")
    }

    @Test("A2: a kind name the rules refuse (a direction override, too long) refuses the file")
    func badKindName() async throws {
        let ada = try await Self.person("ada")
        await #expect(throws: TallyError.invalid("Nothing was imported: line 3, column kind: A drink kind's name cannot hold invisible formatting characters such as zero-width spaces or direction marks; remove them and try again.")) {
            try await Self.importing("time,kind,amount_ml\n2025-03-30T08:00:00Z,tea,100\n2025-03-30T09:00:00Z,\u{202E}ssavK,100\n", into: ada)
        }
        try await Self.expectUntouched(ada)
        await #expect(throws: TallyError.invalid("Nothing was imported: line 2, column kind: A drink kind's name can be at most 40 characters long (and 160 bytes of UTF-8).")) {
            try await Self.importing("time,kind,amount_ml\n2025-03-30T08:00:00Z,\(String(repeating: "k", count: 41)),100\n", into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    // MARK: - Files that are refused

    @Test("A2: a file that is not text is refused as such, whether the bytes are at its start or after good lines")
    func notText() async throws {
        let message = TallyError.invalid("The file is not text (UTF-8): choose a CSV file, such as the one Tally's export writes.")
        var random = Xoshiro(seed: (7, 1, 2, 3))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let binary = Data(png + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })
        let ada = try await Self.person("ada")
        await #expect(throws: message) { try await Self.importing(data: binary, into: ada) }
        let late = Data("time,amount_ml\r\n2025-03-30T08:00:00Z,250\r\n2025-03-30T09:00:00Z,".utf8) + Data([0xC3, 0x28, 0xFF]) + Data("\r\n".utf8)
        await #expect(throws: message) { try await Self.importing(data: late, into: ada) }
        let latin1 = Data("date,time,amount_ml,note\n2025-03-30,08:00,250,caf".utf8) + Data([0xE9]) + Data("\n".utf8)
        await #expect(throws: message) { try await Self.importing(data: latin1, into: ada) }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: a file with NUL bytes, such as UTF-16 text, is refused as not UTF-8, not as a wrong header")
    func utf16() async throws {
        let text = "time,amount_ml\r\n2025-03-30T08:00:00Z,250\r\n"
        let utf16 = Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
        let ada = try await Self.person("ada")
        await #expect(throws: TallyError.invalid("The file is not text (UTF-8): choose a CSV file, such as the one Tally's export writes.")) {
            try await Self.importing(data: utf16, into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: an empty file, a file of only a byte order mark, a file of only the header")
    func emptyFile() async throws {
        let ada = try await Self.person("ada")
        let empty = TallyError.invalid("The file is empty: export your drinks as CSV and choose that file.")
        await #expect(throws: empty) { try await Self.importing(data: Data(), into: ada) }
        await #expect(throws: empty) { try await Self.importing(data: Data([0xEF, 0xBB, 0xBF]), into: ada) }
        let report = try await Self.importing(Self.header + "\r\n", into: ada)
        #expect(report == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: 0, newKinds: []))
        #expect(report.sentences == ["Imported 0 drinks and 0 removals."])
        try await Self.expectUntouched(ada)
    }

    @Test("A2: a header without a time or an amount is refused, saying what line 1 needs", arguments: [
        "name,price\nfoo,1\n", "amount_ml,note\n250,x\n", "time,note\n2025-03-30T08:00:00Z,x\n", "\n2025-03-30T08:00:00Z,250\n",
    ])
    func wrongHeader(_ file: String) async throws {
        let ada = try await Self.person("ada")
        await #expect(throws: TallyError.invalid("Line 1 must name the columns: at least a time (or a date and a time) and an amount. Tally's own export has time,day,type,volume_ml,kind,factor,effective_ml,note,source,id; a plain file can have date,time,amount,unit.")) {
            try await Self.importing(file, into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    static let goodRows = [
        "2025-03-30T08:00:00+02:00,2025-03-30,drink,250,coffee,0.85,212.5,,manual,00000000-0000-4000-8000-000000000001",
        "2025-03-30T09:00:00+02:00,2025-03-30,drink,500,water,1,500,,manual,00000000-0000-4000-8000-000000000002",
        "2025-03-30T10:00:00+02:00,2025-03-30,removal,100,,,-100,,,00000000-0000-4000-8000-000000000003",
        "2025-03-31T08:00:00+02:00,2025-03-31,drink,330,Kvass,0.9,297,Kvass!,manual,00000000-0000-4000-8000-000000000004",
    ]

    static func tallyFile(_ rows: [String]) -> String {
        ([header] + rows).joined(separator: "\r\n") + "\r\n"
    }

    @Test("A2: a good file of Tally's columns imports as written")
    func goodTallyFile() async throws {
        let ada = try await Self.person("ada")
        let report = try await Self.importing(Self.tallyFile(Self.goodRows), into: ada)
        #expect(report == DrinkCSVImportReport(drinksAdded: 3, removalsAdded: 1, alreadyThere: 0, newKinds: ["Kvass"]))
        #expect(report.sentences == ["Imported 3 drinks and 1 removal.", "New drink kinds: Kvass."])
        #expect(try await Self.entries(of: ada).map(\.id) == [1, 2, 3, 4].map(Self.id))
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 612.5)
        #expect(try await ada.daySummary(on: Self.day("2025-03-31")).totalMl == 297)
        // Two of the rows again, and one new: the report counts them.
        let more = Self.tallyFile(Array(Self.goodRows.prefix(2))
            + ["2025-03-31T09:00:00+02:00,2025-03-31,drink,100,tea,0.95,95,,bottle,00000000-0000-4000-8000-000000000005"])
        let again = try await Self.importing(more, into: ada)
        #expect(again == DrinkCSVImportReport(drinksAdded: 1, removalsAdded: 0, alreadyThere: 2, newKinds: []))
        #expect(again.sentences == ["Imported 1 drink and 0 removals.", "2 entries were there already."])
        #expect(try await Self.intakes(of: ada).last?.source == .bottle)
    }

    @Test("A2: a bad row in the middle: nothing is imported, and the message names its line and column")
    func badRowInMiddle() async throws {
        let ada = try await Self.person("ada")
        var rows = Self.goodRows
        rows[2] = "2025-03-30T10:00:00+02:00,2025-03-30,drink,2x50,water,1,250,,manual,00000000-0000-4000-8000-000000000009"
        await #expect(throws: Self.oneLineWrong("Line 4, column volume_ml: \"2x50\" is not an amount: write a number such as 250 or 212.5.")) {
            try await Self.importing(Self.tallyFile(rows), into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: a quoted note with line breaks before a bad row: the line number counts the note's lines; blank lines count too")
    func lineNumbersAfterQuotedLineBreaks() async throws {
        let ada = try await Self.person("ada")
        let rows = [
            "2025-03-30T08:00:00+02:00,2025-03-30,drink,250,coffee,0.85,212.5,\"first\nsecond\r\nthird, \"\"quoted\"\"\",manual,",
            "2025-03-30T09:00:00+02:00,2025-03-30,drink,500,water,1,500,\"old mac\rline\",manual,",
            "",
            "2025-03-30T10:00:00+02:00,2025-03-30,drink,250,tea,2,500,,manual,",
        ]
        // Lines: 1 the header, 2–4 the first row, 5–6 the second, 7 blank, 8 the bad row.
        await #expect(throws: Self.oneLineWrong("Line 8, column factor: \"2\" is not a hydration factor: write a number from 0 to 1.5.")) {
            try await Self.importing(Self.tallyFile(rows), into: ada)
        }
        try await Self.expectUntouched(ada)
        let good = try Self.read(Self.tallyFile(Array(rows.prefix(3)) + ["2025-03-30T10:00:00+02:00,2025-03-30,drink,250,tea,0.95,237.5,,manual,"]))
        #expect(good.map(\.line) == [2, 5, 8])
        #expect(good.first?.note == "first\nsecond\r\nthird, \"quoted\"")
        #expect(good[1].note == "old mac\rline")
    }

    @Test("A2: a U+2028 line separator in a note is not a line break of the file: the line numbers after it stay right")
    func lineSeparatorInNote() async throws {
        let ada = try await Self.person("ada")
        try await ada.logDrink(.init(volumeMl: 250, at: Self.instant("2025-03-30T06:00:00Z"), note: "x\u{2028}y\u{2029}z", id: Self.id(1)))
        var text = String(decoding: try await Self.export(ada), as: UTF8.self)
        // Editors, grep -n and wc -l see the note's row as one line: the bad row is line 3.
        #expect(text.unicodeScalars.filter { $0 == "\n" }.count == 2)
        text += "2025-03-30T10:00:00+02:00,2025-03-30,drink,-5,water,1,-5,,manual,\r\n"
        let bea = try await Self.person("bea")
        await #expect(throws: Self.oneLineWrong("Line 3, column volume_ml: A drink must be more than 0 ml.")) {
            try await Self.importing(text, into: bea)
        }
        try await Self.expectUntouched(bea)
    }

    @Test("A2: every wrong line is counted, the first ten named")
    func manyWrongLines() async throws {
        let ada = try await Self.person("ada")
        let bad = (0..<12).map { "2025-03-30,08:\(10 + $0),lots" }
        let file = "date,time,amount_ml\n2025-03-30,07:00,250\n" + bad.joined(separator: "\n") + "\n"
        let named = (0..<10).map { "Line \($0 + 3), column amount_ml: \"lots\" is not an amount: write a number such as 250 or 212.5." }
        await #expect(throws: TallyError.invalid(.verbatim((["Nothing was imported: 12 lines are wrong."] + named + ["… and 2 more."]).joined(separator: "\n")))) {
            try await Self.importing(file, into: ada)
        }
        // Several columns wrong on several lines: one sentence per line, the first wrong column.
        await #expect(throws: TallyError.invalid("""
            Nothing was imported: 2 lines are wrong.
            Line 2, column time: "2025-02-30T08:00:00+01:00" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15).
            Line 4, column type: "sip" is not a type: write drink or removal.
            """)) {
            try await Self.importing(Self.tallyFile([
                "2025-02-30T08:00:00+01:00,,drink,nope,,,,,,",
                Self.goodRows[0],
                "2025-03-30T11:00:00+02:00,,sip,250,,,,,,",
            ]), into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: a truncated file (its last row cut short, even inside a quoted note) is refused at that line")
    func truncated() async throws {
        let ada = try await Self.person("ada")
        let whole = Self.tallyFile(Self.goodRows)
        let cutInNumber = String(whole[..<whole.range(of: "2025-03-31T08:00:00+02:00,2025-03-31,drink,33")!.upperBound])
        await #expect(throws: Self.oneLineWrong("Line 5: it has 4 fields where the header names 10 (a file cut short, or a comma in an unquoted field).")) {
            try await Self.importing(cutInNumber, into: ada)
        }
        let quoted = Self.tallyFile(Array(Self.goodRows.prefix(3)))
            + "2025-03-31T08:00:00+02:00,2025-03-31,drink,330,coffee,0.85,280.5,\"Lunch, with\nSam"
        await #expect(throws: Self.oneLineWrong("Line 5: it has 8 fields where the header names 10 (a file cut short, or a comma in an unquoted field).")) {
            try await Self.importing(quoted, into: ada)
        }
        let inID = Self.tallyFile(Array(Self.goodRows.prefix(3))) + "2025-03-31T08:00:00+02:00,2025-03-31,drink,330,Kvass,0.9,297,,manual,00000000-0000-4000-80"
        await #expect(throws: Self.oneLineWrong("Line 5, column id: \"00000000-0000-4000-80\" is not an id: leave it empty, or write a UUID.")) {
            try await Self.importing(inID, into: ada)
        }
        try await Self.expectUntouched(ada)
        // Without its last line break the file is whole.
        #expect(String(whole.dropLast(1)).hasSuffix("000000000004"), "\"\\r\\n\" is one Character")
        #expect(try await Self.importing(String(whole.dropLast(1)), into: ada).drinksAdded == 3)
    }

    @Test("A2: an id twice in one file is refused, whatever its case")
    func duplicateID() async throws {
        let ada = try await Self.person("ada")
        let rows = Self.goodRows + ["2025-03-31T09:00:00+02:00,2025-03-31,drink,100,water,1,100,,manual,00000000-0000-4000-8000-000000000002",
                                    "2025-03-31T09:00:00+02:00,2025-03-31,drink,100,water,1,100,,manual,00000000-0000-4000-8000-00000000000A",
                                    "2025-03-31T10:00:00+02:00,2025-03-31,drink,100,water,1,100,,manual,00000000-0000-4000-8000-00000000000a"]
        await #expect(throws: TallyError.invalid("""
            Nothing was imported: 2 lines are wrong.
            Line 6, column id: the id 00000000-0000-4000-8000-000000000002 is on line 3 too.
            Line 8, column id: the id 00000000-0000-4000-8000-00000000000a is on line 7 too.
            """)) {
            try await Self.importing(Self.tallyFile(rows), into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: a row whose id is another person's entry gets an id of this person's own, made from it: the same on every import; the other person's entry is untouched")
    func otherPersonsID() async throws {
        let store = try SQLiteStore.inMemory()
        let bea = try await Self.person("bea", in: store)
        try await bea.logDrink(.init(volumeMl: 400, at: Self.instant("2025-03-29T08:00:00Z"), id: Self.id(2)))
        let ada = try await Self.person("ada", in: store)
        let report = try await Self.importing(Self.tallyFile(Self.goodRows), into: ada)
        #expect(report == DrinkCSVImportReport(drinksAdded: 3, removalsAdded: 1, alreadyThere: 0, newKinds: ["Kvass"]))
        let own = AppleHealthImporter.nameBasedUUID(namespace: ada.user, name: "csv-id:00000000-0000-4000-8000-000000000002")
        #expect(try await Self.entries(of: ada).map(\.id) == [Self.id(1), own, Self.id(3), Self.id(4)])
        #expect(try await Self.intakes(of: ada).map(\.volumeMl) == [250, 500, 330])
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 612.5)
        #expect(try await Self.entries(of: bea).map(\.id) == [Self.id(2)])
        #expect(try await bea.daySummary(on: Self.day("2025-03-29")).totalMl == 400)
        #expect(try await bea.daySummary(on: Self.day("2025-03-30")).totalMl == 0)
        // Again: nothing twice.
        #expect(try await Self.importing(Self.tallyFile(Self.goodRows), into: ada)
                == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: 4, newKinds: []))
        #expect(try await Self.entries(of: ada).count == 4)
    }

    @Test("A2: a person's export imported by another person of the same database: the same days and entries under ids of their own; again, nothing twice")
    func sameDatabaseCopy() async throws {
        let store = try SQLiteStore.inMemory()
        let ada = try await Self.person("ada", in: store)
        try await ada.addDrinkKind(name: "Kvass", factor: 0.9)
        for (index, note) in Self.hostileNotes.enumerated() {
            try await ada.logDrink(.init(volumeMl: Self.volumes[index % Self.volumes.count], kindName: index % 3 == 0 ? "Kvass" : "tea",
                                         at: Self.instant("2025-10-25T20:00:00Z") + Double(index * 900), note: note))
        }
        try await ada.remove(volumeMl: 99.5, at: Self.instant("2025-10-26T12:00:00Z"))
        let file = try await Self.export(ada)
        let bea = try await Self.person("bea", in: store)
        let report = try await Self.importing(data: file, into: bea)
        #expect(report == DrinkCSVImportReport(drinksAdded: Self.hostileNotes.count, removalsAdded: 1, alreadyThere: 0, newKinds: ["Kvass"]))
        let source = try await Self.entries(of: ada), copy = try await Self.entries(of: bea)
        #expect(copy.count == source.count)
        #expect(Set(copy.map(\.id)).isDisjoint(with: source.map(\.id)))
        for (a, b) in zip(source, copy) {
            let expected = AppleHealthImporter.nameBasedUUID(namespace: bea.user, name: "csv-id:\(a.id.uuidString.lowercased())")
            #expect(b.id == expected)
            switch (a, b) {
            case (.intake(var a), .intake(let b)):
                a.id = b.id
                a.kindID = b.kindID
                #expect(a == b)
            case (.removal(var a), .removal(let b)):
                a.id = b.id
                #expect(a == b)
            default:
                Issue.record("\(a) and \(b) are not the same type")
            }
        }
        #expect(try await bea.store.dailyTotals(of: bea.user, from: nil, through: nil) == (try await ada.store.dailyTotals(of: ada.user, from: nil, through: nil)))
        #expect(try await Self.importing(data: file, into: bea)
                == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: source.count, newKinds: []))
        #expect(try await Self.importing(data: file, into: ada)
                == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 0, alreadyThere: source.count, newKinds: []))
        #expect(try await Self.entries(of: ada) == source)
    }

    @Test("A2: a time in the future is refused (a minute's grace for clocks)")
    func futureTime() async throws {
        let ada = try await Self.person("ada")
        await #expect(throws: Self.oneLineWrong("Line 3, column time: that time is in the future.")) {
            try await Self.importing("time,amount_ml\n2026-06-01T09:00:00Z,250\n2026-06-01T12:02:00+02:00,250\n", into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column time: that time is in the future.")) {
            try await Self.importing("date,time,amount_ml\n2026-06-02,00:30,250\n", into: ada)
        }
        try await Self.expectUntouched(ada)
        #expect(try await Self.importing("time,amount_ml\n2026-06-01T10:00:59Z,250\n", into: ada).drinksAdded == 1)
    }

    @Test("A2: removals that take a day below zero are refused, naming the day, by how much and the lines; nothing is imported")
    func removalBelowZero() async throws {
        let ada = try await Self.person("ada")
        let file = Self.tallyFile([
            "2025-03-29T08:00:00+01:00,2025-03-29,drink,100,water,1,100,,manual,",
            "2025-03-30T08:00:00+02:00,2025-03-30,drink,250,water,1,250,,manual,",
            "2025-03-30T09:00:00+02:00,2025-03-30,removal,200,,,-200,,,",
            "2025-03-30T10:00:00+02:00,2025-03-30,removal,100,,,-100,,,",
        ])
        await #expect(throws: TallyError.invalid("Nothing was imported. The removals on 2025-03-30 (lines 4, 5) take 50 ml more than the day's drinks; a day's total never goes below zero.")) {
            try await Self.importing(file, into: ada)
        }
        try await Self.expectUntouched(ada)

        // Against what the day has already: 200 ml logged, then a file removing 150, then 100 more.
        try await ada.logDrink(.init(volumeMl: 200, at: Self.instant("2025-03-30T05:00:00Z")))
        let removal = "date,time,type,amount_ml\n2025-03-30,12:00,removal,"
        #expect(try await Self.importing(removal + "150\n", into: ada) == DrinkCSVImportReport(drinksAdded: 0, removalsAdded: 1, alreadyThere: 0, newKinds: []))
        await #expect(throws: TallyError.invalid("Nothing was imported. The removals on 2025-03-30 (line 2) take 50 ml more than the day's drinks; a day's total never goes below zero.")) {
            try await Self.importing(removal + "100\n", into: ada)
        }
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 50)
        #expect(try await Self.entries(of: ada).count == 2)
    }

    @Test("A2: stored a few days at a time, a day that a removal would take below zero stops the import there, keeping the days before; importing again finishes it and doubles nothing")
    func batchesStopAtTheRefusedDay() async throws {
        let ada = try await Self.person("ada")
        let file = Self.tallyFile([
            "2025-03-28T08:00:00+01:00,2025-03-28,drink,100,water,1,100,,manual,",
            "2025-03-29T08:00:00+01:00,2025-03-29,drink,100,water,1,100,,manual,",
            "2025-03-30T08:00:00+02:00,2025-03-30,drink,250,water,1,250,,manual,",
            "2025-03-30T09:00:00+02:00,2025-03-30,removal,300,,,-300,,,",
        ])
        let importer = DrinkCSVImporter(hydration: ada, batchSize: 1)
        await #expect(throws: TallyError.invalid("The drinks up to 2025-03-29 were imported; from 2025-03-30 on, nothing was. The removals on 2025-03-30 (line 5) take 50 ml more than the day's drinks; a day's total never goes below zero.")) {
            try await importer.importCSV(Self.stream(file), unit: nil)
        }
        #expect(try await Self.entries(of: ada).count == 2)
        // A kind the person cannot have is refused before anything is stored.
        let badKind = Self.tallyFile(["2025-03-27T08:00:00+01:00,2025-03-27,drink,100,,5,100,,manual,",
                                      "2025-03-31T08:00:00+02:00,2025-03-31,drink,100,Kombucha,9,900,,manual,"])
        await #expect(throws: TallyError.self) { try await importer.importCSV(Self.stream(badKind), unit: nil) }
        #expect(try await Self.entries(of: ada).count == 2)
        // Put right, the same file adds the rest only.
        let fixed = file.replacingOccurrences(of: "removal,300,,,-300", with: "removal,200,,,-200")
        let report = try await importer.importCSV(Self.stream(fixed), unit: nil)
        #expect(report == DrinkCSVImportReport(drinksAdded: 1, removalsAdded: 1, alreadyThere: 2, newKinds: []))
        #expect(try await ada.daySummary(on: Self.day("2025-03-30")).totalMl == 50)
    }

    @Test("A2: while a long CSV is imported, another person's drink waits for one batch at most, not for the whole file")
    func importLetsOthersWrite() async throws {
        // setup: two people in one database file; a year of drinks, 60 a day, for ada
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-csv-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try SQLiteStore.open(path: path)
        let ada = try await Self.person("ada", in: store), bob = try await Self.person("bob", in: store)
        var lines: [String] = []
        var day = Self.day("2025-01-01")
        for _ in 0..<365 {
            for minute in 0..<60 { lines.append("\(day)T08:\(minute < 10 ? "0" : "")\(minute):00+01:00,\(day),drink,10,water,1,10,,manual,") }
            day = day.adding(days: 1)
        }
        let file = Self.tallyFile(lines)

        // act: bob logs a drink every few milliseconds while ada's file is stored
        let started = ContinuousClock.now
        let done = Flag()
        let importing = Task {
            defer { done.raise() }
            return try await DrinkCSVImporter(hydration: ada).importCSV(Self.stream(file), unit: nil)
        }
        var waits: [Duration] = []
        while !done.isRaised, ContinuousClock.now - started < .seconds(120) {
            let before = ContinuousClock.now
            _ = try await bob.logDrink(.init(volumeMl: 10))
            waits.append(ContinuousClock.now - before)
            try await Task.sleep(for: .milliseconds(5))
        }
        let report = try await importing.value
        let took = ContinuousClock.now - started

        // check: everything stored; bob's longest wait a small part of the whole import
        #expect(report.drinksAdded == 365 * 60)
        let longest = waits.max() ?? .zero
        #expect(waits.count >= 5, "bob wrote \(waits.count) times in \(took)")
        #expect(longest * 4 < took, "bob waited \(longest) in an import of \(took)")
    }

    /// A flag one task raises and another reads.
    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        var isRaised: Bool { lock.withLock { raised } }
        func raise() { lock.withLock { raised = true } }
    }

    @Test("A2: amounts: over 5000 ml, zero, negative, not a number; 5000 ml is the most")
    func amounts() async throws {
        let ada = try await Self.person("ada")
        func row(_ type: String, _ volume: String) -> String {
            Self.tallyFile(["2025-03-30T08:00:00+02:00,2025-03-30,\(type),\(volume),,,,,,"])
        }
        let cases: [(String, String, String)] = [
            ("drink", "5000.01", "Line 2, column volume_ml: A drink can be at most 5000 ml at a time."),
            ("removal", "6000", "Line 2, column volume_ml: A removal can be at most 5000 ml at a time."),
            ("drink", "0", "Line 2, column volume_ml: A drink must be more than 0 ml."),
            ("drink", "-250", "Line 2, column volume_ml: A drink must be more than 0 ml."),
            ("drink", "nan", "Line 2, column volume_ml: \"nan\" is not an amount: write a number such as 250 or 212.5."),
            ("drink", "inf", "Line 2, column volume_ml: \"inf\" is not an amount: write a number such as 250 or 212.5."),
            ("drink", "", "Line 2, column volume_ml: \"\" is not an amount: write a number such as 250 or 212.5."),
        ]
        for (type, volume, sentence) in cases {
            await #expect(throws: Self.oneLineWrong(sentence), "\(type) \(volume)") { try await Self.importing(row(type, volume), into: ada) }
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column Amount (oz): A drink can be at most 169 oz at a time.")) {
            try await Self.importing("Date,Amount (oz)\n2025-03-30 08:00,170\n", into: ada)
        }
        try await Self.expectUntouched(ada)
        #expect(try await Self.importing(row("drink", "5000"), into: ada).drinksAdded == 1)
        #expect(try await Self.intakes(of: ada).map(\.volumeMl) == [5000])
    }

    @Test("A2: a factor out of 0…1.5 or not a number is refused; 0 and 1.5 are factors")
    func factors() async throws {
        let ada = try await Self.person("ada")
        for factor in ["1.6", "-0.1", "abc", "nan", "1.50001"] {
            await #expect(throws: Self.oneLineWrong("Line 2, column factor: \"\(factor)\" is not a hydration factor: write a number from 0 to 1.5.")) {
                try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,tea,\(factor),,,,"]), into: ada)
            }
        }
        try await Self.expectUntouched(ada)
        let report = try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,tea,0,0,,,",
                                                               "2025-03-30T09:00:00+02:00,,drink,250,milk,1.5,375,,,"]), into: ada)
        #expect(report.drinksAdded == 2)
        #expect(try await Self.intakes(of: ada).map(\.effectiveMl) == [0, 375])
    }

    @Test("A2: effective_ml must be volume × factor (to 0.01 ml)")
    func effective() async throws {
        let ada = try await Self.person("ada")
        await #expect(throws: Self.oneLineWrong("Line 2, column effective_ml: \"250\" is not the volume times the factor (212.5).")) {
            try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,coffee,0.85,250,,,"]), into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column effective_ml: \"212.52\" is not the volume times the factor (212.5).")) {
            try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,coffee,0.85,212.52,,,"]), into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column effective_ml: \"lots\" is not the volume times the factor (212.5).")) {
            try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,coffee,0.85,lots,,,"]), into: ada)
        }
        try await Self.expectUntouched(ada)
        let report = try await Self.importing(Self.tallyFile(["2025-03-30T08:00:00+02:00,,drink,250,coffee,0.85,212.505,,,",
                                                               "2025-03-30T09:00:00+02:00,,drink,\(VolumeUnit.oz.toMilliliters(8)),coffee,0.85,201.1,,,"]), into: ada)
        #expect(report.drinksAdded == 2)
        #expect(try await Self.intakes(of: ada).map(\.effectiveMl) == [250 * 0.85, VolumeUnit.oz.toMilliliters(8) * 0.85])
    }

    @Test("A2: a day column far from the time, or not a day, is refused; a day the time has in another zone is kept")
    func dayColumn() async throws {
        let ada = try await Self.person("ada")
        await #expect(throws: Self.oneLineWrong("Line 2, column day: 2025-03-13 is not the day of that time in any time zone.")) {
            try await Self.importing(Self.tallyFile(["2025-03-10T12:00:00Z,2025-03-13,drink,250,,,,,,"]), into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column day: 2025-03-08 is not the day of that time in any time zone.")) {
            try await Self.importing(Self.tallyFile(["2025-03-10T12:00:00Z,2025-03-08,drink,250,,,,,,"]), into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column day: \"30/03/2025\" is not a day: write it as 2025-03-30.")) {
            try await Self.importing(Self.tallyFile(["2025-03-30T12:00:00Z,30/03/2025,drink,250,,,,,,"]), into: ada)
        }
        try await Self.expectUntouched(ada)
        // 22:30 in New York is the next morning in Paris: the file's day is the drink's.
        try await Self.importing(Self.tallyFile(["2025-03-11T03:30:00+01:00,2025-03-10,drink,250,,,,,,"]), into: ada)
        #expect(try await Self.intakes(of: ada).map(\.day) == [Self.day("2025-03-10")])
        #expect(try await ada.daySummary(on: Self.day("2025-03-10")).totalMl == 250)
        #expect(try await ada.daySummary(on: Self.day("2025-03-11")).totalMl == 0)
    }

    @Test("A2: the day of a time is only a day some zone (UTC−12 to UTC+14) has at that instant", arguments: [
        ("2025-03-10T23:00:00Z", "2025-03-10", true), ("2025-03-10T23:00:00Z", "2025-03-11", true), ("2025-03-10T23:00:00Z", "2025-03-09", false),
        ("2025-03-10T01:00:00Z", "2025-03-09", true), ("2025-03-10T01:00:00Z", "2025-03-10", true), ("2025-03-10T01:00:00Z", "2025-03-11", false),
    ] as [(String, String, Bool)])
    func dayColumnEdges(_ time: String, _ day: String, _ possible: Bool) throws {
        let file = Self.tallyFile(["\(time),\(day),drink,250,,,,,,"])
        if possible {
            #expect(try Self.read(file).map(\.day) == [Self.day(day)])
        } else {
            #expect(throws: Self.oneLineWrong("Line 2, column day: \(day) is not the day of that time in any time zone.")) {
                try Self.read(file)
            }
        }
    }

    @Test("A2: other wrong cells: type, source, id, time, unit, a note the rules refuse")
    func otherWrongCells() async throws {
        let ada = try await Self.person("ada")
        let cases: [(String, String)] = [
            ("2025-03-30T08:00:00+02:00,,pour,250,,,,,,", "Line 2, column type: \"pour\" is not a type: write drink or removal."),
            ("2025-03-30T08:00:00+02:00,,drink,250,,,,,fridge,", "Line 2, column source: \"fridge\" is not a source: write manual, bottle or import."),
            ("2025-03-30T08:00:00+02:00,,drink,250,,,,,,xyz", "Line 2, column id: \"xyz\" is not an id: leave it empty, or write a UUID."),
            ("2025-03-30T08:00:00+02:00,,drink,250,,,,,,00000000-0000-0000-0000-000000000000",
             "Line 2, column id: \"00000000-0000-0000-0000-000000000000\" is not an id: leave it empty, or write a UUID."),
            ("2025-03-30T25:00:00+02:00,,drink,250,,,,,,",
             "Line 2, column time: \"2025-03-30T25:00:00+02:00\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15)."),
            (",,drink,250,,,,,,", "Line 2, column time: \"\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15)."),
            ("2025-03-30T08:00:00+02:00,,drink,250,,,,\u{202E}evil,,",
             "Line 2, column note: A note cannot hold bidirectional override characters, which reorder the text others read; remove them and try again."),
            ("2025-03-30T08:00:00+02:00,,drink,250,,,,\(String(repeating: "n", count: 501)),,",
             "Line 2, column note: A note can be at most 500 characters long (and 2000 bytes of UTF-8)."),
        ]
        for (row, sentence) in cases {
            await #expect(throws: Self.oneLineWrong(sentence), "\(row)") { try await Self.importing(Self.tallyFile([row]), into: ada) }
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column unit: \"cups\" is not a unit: write ml or oz.")) {
            try await Self.importing("date,time,amount,unit\n2025-03-30,08:00,2,cups\n", into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column time: \"2025-03-30 24:00\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15).")) {
            try await Self.importing("date,time,amount_ml\n2025-03-30,24:00,250\n", into: ada)
        }
        await #expect(throws: Self.oneLineWrong("Line 2, column time: \"2025-03-30 13:00 pm\" is not a time: write 2025-03-30T08:15:00+02:00, or a date (2025-03-30) and a time (08:15).")) {
            try await Self.importing("date,time,amount_ml\n2025-03-30,13:00 pm,250\n", into: ada)
        }
        try await Self.expectUntouched(ada)
    }

    @Test("A2: the report's sentences, one and many")
    func sentences() {
        #expect(DrinkCSVImportReport(drinksAdded: 1, removalsAdded: 1, alreadyThere: 1, newKinds: ["Kvass"]).sentences
                == ["Imported 1 drink and 1 removal.", "1 entry was there already.", "New drink kinds: Kvass."])
        #expect(DrinkCSVImportReport(drinksAdded: 2, removalsAdded: 0, alreadyThere: 3, newKinds: ["a", "b"]).sentences
                == ["Imported 2 drinks and 0 removals.", "3 entries were there already.", "New drink kinds: a, b."])
    }
}

