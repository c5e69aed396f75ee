import Foundation
import Testing
@testable import TallyCore

/// H2, H9, H12: the today screen.
@Suite("Day summary (H2, H9, H12)")
struct DaySummaryTests {
    let date = day("2025-06-10")
    let morning = utc("2025-06-10T06:00:00Z")

    @Test("H12: an empty day shows 0 of the goal, 0 %, and an empty list that says so")
    func emptyDay() throws {
        let summary = DaySummary(date: date, entries: [], goal: .default, unit: .ml)
        #expect(summary.totalMl == 0)
        #expect(summary.goalMl == 2500)
        #expect(summary.percent == 0)
        #expect(!summary.goalMet)
        #expect(summary.entries.isEmpty)
        #expect(summary.goalMode == .automatic)
        #expect(DaySummary.emptyMessage(isToday: true) == "No drinks yet today.")
        #expect(DaySummary.emptyMessage(isToday: false) == "No drinks on this day.")
    }

    @Test("H2, H3: the total sums effective hydration minus removals; entries are oldest first")
    func totalsAndOrder() throws {
        let first = intake(500, at: morning)
        let second = intake(200, coffee, at: morning + 3600)
        let third = removal(100, at: morning + 7200)
        let summary = DaySummary(date: date, entries: [third, first, second], goal: customGoal(1140), unit: .oz)
        #expect(isClose(summary.totalMl, 570))
        #expect(summary.entries.map(\.id) == [first.id, second.id, third.id])
        #expect(isClose(try #require(summary.percent), 50))
        #expect(summary.unit == .oz)
        #expect(summary.goalMode == .custom)
    }

    @Test("H7: with no goal only the total is shown")
    func noGoal() {
        let summary = DaySummary(date: date, entries: [intake(750, at: morning)], goal: Goal(.none, profile: nil), unit: .ml)
        #expect(summary.totalMl == 750)
        #expect(summary.goalMl == nil)
        #expect(summary.percent == nil)
        #expect(!summary.goalMet)
        #expect(summary.goalMode == .none)
    }

    @Test("H9: 200 % shows as 200")
    func overGoal() {
        let summary = DaySummary(date: date, entries: [intake(2500, at: morning), intake(2500, at: morning + 60)],
                                 goal: .default, unit: .ml)
        #expect(summary.percent == 200)
        #expect(summary.goalMet)
    }

    @Test("H1: entries encode to JSON and back, keeping the effective hydration they were logged with")
    func entryCodableKeepsStoredEffective() throws {
        var logged = Intake(id: UUID(), at: morning, day: date, volumeMl: 200,
                            kind: DrinkKind(name: "coffee", factor: 0.85), note: "flat white", source: .bottle)
        logged.effectiveMl = 150 // logged under an older factor
        let entries: [DayEntry] = [.intake(logged), removal(50, at: morning + 60)]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode([DayEntry].self, from: encoder.encode(entries))
        #expect(decoded == entries)
        guard case .intake(let back) = decoded[0] else {
            Issue.record("the first entry should decode as an intake")
            return
        }
        #expect(back.effectiveMl == 150)
        #expect(back.note == "flat white")
        #expect(back.source == .bottle)
        #expect(back.day == date)
    }

    @Test("H3: a removal encodes as type removal with a negative effective amount")
    func removalJSON() throws {
        let entry = removal(100, at: morning)
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)) as? [String: Any])
        #expect(object["type"] as? String == "removal")
        #expect(object["volumeMl"] as? Double == 100)
        #expect(object["effectiveMl"] as? Double == -100)
        #expect(object["day"] as? String == "2025-06-10")
        let intakeObject = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(intake(200, coffee, at: morning))) as? [String: Any])
        #expect(intakeObject["type"] as? String == "intake")
        #expect(intakeObject["kind"] as? String == "coffee")
        #expect(intakeObject["effectiveMl"] as? Double == 170)
        #expect(intakeObject["note"] == nil)
    }

    @Test("H2: a summary encodes to JSON and back unchanged")
    func summaryCodable() throws {
        let summary = DaySummary(date: date, entries: [intake(250, at: morning), removal(50, at: morning + 60)],
                                 goal: .default, unit: .ml)
        let data = try JSONEncoder().encode(summary)
        #expect(try JSONDecoder().decode(DaySummary.self, from: data) == summary)
    }
}

@Suite("Explicit nulls in JSON")
struct ExplicitNullTests {
    struct Sample: Codable, Equatable {
        @ExplicitNull var goalMl: Double?
    }

    @Test("A nil is written as null, not left out, and read back from null or a missing key")
    func nullRoundTrip() throws {
        #expect(String(decoding: try JSONEncoder().encode(Sample(goalMl: nil)), as: UTF8.self) == #"{"goalMl":null}"#)
        #expect(String(decoding: try JSONEncoder().encode(Sample(goalMl: 2500)), as: UTF8.self) == #"{"goalMl":2500}"#)
        #expect(try JSONDecoder().decode(Sample.self, from: Data(#"{"goalMl":null}"#.utf8)) == Sample(goalMl: nil))
        #expect(try JSONDecoder().decode(Sample.self, from: Data("{}".utf8)) == Sample(goalMl: nil))
        #expect(try JSONDecoder().decode(Sample.self, from: Data(#"{"goalMl":3000}"#.utf8)) == Sample(goalMl: 3000))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sample.self, from: Data(#"{"goalMl":"lots"}"#.utf8)) }
    }
}
