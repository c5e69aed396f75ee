import Foundation
import Testing
import TallyAPI
import TallyCore

/// TallyCore's values as the API, `tally --json` and a person's backup write them: spelled key by
/// key in TallyAPI, so that the core can rename a property without changing a public format.
@Suite("The core's values on the wire")
struct CoreValuesWireTests {
    let day = LocalDate(year: 2025, month: 6, day: 10)!
    let morning = Date(timeIntervalSince1970: 1_749_542_400) // 2025-06-10T08:00:00Z

    func removal(_ ml: Double, at: Date) -> DayEntry { .removal(Removal(id: UUID(), at: at, day: day, volumeMl: ml)) }

    func keys(_ value: some Encodable) throws -> Set<String> {
        Set(try #require(JSONSerialization.jsonObject(with: APICoding.encoder.encode(value)) as? [String: Any]).keys)
    }

    @Test("Every value's keys, as the API documents them: a renamed property does not rename a key")
    func keysArePinned() throws {
        let intake = Intake(id: UUID(), at: morning, day: day, volumeMl: 200, kind: DrinkKind(name: "coffee", factor: 0.85), note: nil, source: .manual)
        #expect(try keys(DayEntry.intake(intake)) == ["type", "id", "at", "day", "volumeMl", "effectiveMl", "kind", "kindID", "factor", "source"])
        #expect(try keys(removal(50, at: morning)) == ["type", "id", "at", "day", "volumeMl", "effectiveMl"])
        #expect(try keys(DaySummary(date: day, entries: [], goal: .default, unit: .ml))
                == ["date", "totalMl", "goalMl", "goalMode", "percent", "goalMet", "unit", "entries"])
        #expect(try keys(DayProgress(date: day, totalMl: 0, goal: Goal(mode: .none, targetMl: nil))) == ["date", "totalMl", "goalMl", "percent", "goalMet"])
        #expect(try keys(DrinkKind(name: "tea", factor: 0.9)) == ["id", "name", "factor", "isBuiltIn", "isRetired"])
        #expect(try keys(Bottle.standard) == ["capacityMl", "levelMl", "sipMl"])
        #expect(try keys(try Profile(age: 40, weightKg: 70, activity: .light)) == ["age", "weightKg", "activity"])
        #expect(try keys(GoalPeriod(start: day, end: nil, goal: .default)) == ["start", "goal"])
        #expect(try keys(ReminderSettings.standard) == ["enabled", "window", "frequency", "useSleepRecords"])
        #expect(try keys(HydrationSettings(unit: .oz, timeZone: "Europe/Berlin")) == ["unit", "timeZone"])
        #expect(try keys(SessionInfo(id: "ab", device: "a phone", createdAt: morning, lastSeenAt: morning, expiresAt: morning))
                == ["id", "device", "createdAt", "lastSeenAt", "expiresAt"])
        #expect(try keys(APITokenInfo(id: UUID(), name: "cli", createdAt: morning)) == ["id", "name", "scope", "createdAt"])
    }

    @Test("H1: entries encode to JSON and back, keeping the effective hydration they were logged with")
    func entriesKeepTheirEffective() throws {
        var logged = Intake(id: UUID(), at: morning, day: day, volumeMl: 200,
                            kind: DrinkKind(name: "coffee", factor: 0.85), note: "flat white", source: .bottle)
        logged.effectiveMl = 150 // logged under an older factor
        let entries: [DayEntry] = [.intake(logged), removal(50, at: morning + 60)]
        let decoded = try APICoding.decoder.decode([DayEntry].self, from: APICoding.encoder.encode(entries))
        #expect(decoded == entries)
        guard case .intake(let back) = decoded[0] else {
            Issue.record("the first entry should decode as an intake")
            return
        }
        #expect(back.effectiveMl == 150 && back.note == "flat white" && back.source == .bottle && back.day == day)
    }

    @Test("H3: a removal encodes as type removal with a negative effective amount; a drink without a note has no note")
    func removalJSON() throws {
        let object = try #require(JSONSerialization.jsonObject(with: APICoding.encoder.encode(removal(100, at: morning))) as? [String: Any])
        #expect(object["type"] as? String == "removal" && object["volumeMl"] as? Double == 100)
        #expect(object["effectiveMl"] as? Double == -100 && object["day"] as? String == "2025-06-10")
        let coffee = Intake(id: UUID(), at: morning, day: day, volumeMl: 200, kind: DrinkKind(name: "coffee", factor: 0.85), note: nil, source: .manual)
        let drink = try #require(JSONSerialization.jsonObject(with: APICoding.encoder.encode(DayEntry.intake(coffee))) as? [String: Any])
        #expect(drink["type"] as? String == "intake" && drink["kind"] as? String == "coffee")
        #expect(drink["effectiveMl"] as? Double == 170 && drink["note"] == nil)
    }

    @Test("H2, H9: a day's summary and the history encode to JSON and back unchanged; no goal is null, not left out")
    func summaryAndHistory() throws {
        let summary = DaySummary(date: day, entries: [removal(50, at: morning + 60)], goal: Goal(mode: .none, targetMl: nil), unit: .ml)
        let data = try APICoding.encoder.encode(summary)
        #expect(try APICoding.decoder.decode(DaySummary.self, from: data) == summary)
        #expect(String(decoding: data, as: UTF8.self).contains(#""goalMl":null"#))
        var goals = GoalHistory()
        _ = goals.set(Goal(.none, profile: nil), today: day.adding(days: -1))
        let history = HydrationHistory(today: day, dayCount: 7, month: day.yearMonth, totals: [day: 1234.5, day.adding(days: -3): 2500], goals: goals)
        #expect(try APICoding.decoder.decode(HydrationHistory.self, from: APICoding.encoder.encode(history)) == history)
    }

    @Test("H7: a decoded profile is checked like a typed one")
    func profileIsChecked() throws {
        let profile = try APICoding.decoder.decode(Profile.self, from: Data(#"{"age":64,"weightKg":80,"activity":"very-active"}"#.utf8))
        #expect(profile.age == 64 && profile.weightKg == 80 && profile.activity == .veryActive)
        #expect(try APICoding.decoder.decode(Profile.self, from: APICoding.encoder.encode(profile)) == profile)
        #expect(throws: TallyError.self) { try APICoding.decoder.decode(Profile.self, from: Data(#"{"age":9,"weightKg":80,"activity":"light"}"#.utf8)) }
    }

    @Test("H11: settings saved before the sleep-record choice existed read as manual")
    func olderReminderSettings() throws {
        let json = #"{"enabled":true,"window":{"wake":"06:30","sleep":"22:00"},"frequency":5}"#
        let settings = try APICoding.decoder.decode(ReminderSettings.self, from: Data(json.utf8))
        #expect(!settings.useSleepRecords && settings.frequency == 5 && settings.smartThresholdHours == nil)
        let again = try APICoding.decoder.decode(ReminderSettings.self, from: APICoding.encoder.encode(ReminderSettings(
            enabled: true, window: .standard, frequency: 2, smartThresholdHours: 3, useSleepRecords: true)))
        #expect(again.useSleepRecords && again.smartThresholdHours == 3)
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
