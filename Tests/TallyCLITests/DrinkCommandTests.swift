import Foundation
import Testing

/// `tally drink`: amounts, units, kinds, notes, times and client ids (H1, H5, H6, A5).
@Suite("tally drink")
struct DrinkCommandTests {
    // H1, H5: a bare number is in the user's unit (ml by default); ml and oz suffixes are read;
    // 1 fl oz = 29.5735 ml and nothing is rounded in storage.
    @Test("amounts with and without a unit", arguments: [
        ("250", 250.0), ("250ml", 250.0), ("250 ml", 250.0), ("8oz", 236.588), ("12.5ml", 12.5),
    ])
    func amounts(typed: String, ml: Double) throws {
        let tally = try Sandbox()
        let result = try tally.json(["drink", typed], as: EntryResultJSON.self)
        #expect(result.created)
        #expect(result.entry.type == "intake")
        #expect(approx(result.entry.volumeMl, ml))
        #expect(approx(result.entry.effectiveMl, ml))
        #expect(result.entry.kind == "water")
        #expect(result.entry.source == "manual")
        #expect(approx(result.day.totalMl, ml))
    }

    // H6: a drink's effective hydration is volume × its kind's factor (coffee 0.85).
    @Test func coffeeCountsEightyFivePercent() throws {
        let tally = try Sandbox()
        let coffee = try tally.json(["drink", "300", "--kind", "coffee"], as: EntryResultJSON.self)
        #expect(coffee.entry.kind == "coffee")
        #expect(approx(coffee.entry.factor, 0.85))
        #expect(approx(coffee.entry.volumeMl, 300))
        #expect(approx(coffee.entry.effectiveMl, 255))
        let ounces = try tally.json(["drink", "8oz", "--kind", "Coffee"], as: EntryResultJSON.self)
        #expect(approx(ounces.entry.effectiveMl, 236.588 * 0.85))
        #expect(approx(ounces.day.totalMl, 255 + 236.588 * 0.85))

        // The text names the kind and its hydration.
        let text = try tally.ok(["drink", "100", "--kind", "coffee"]).stdout
        #expect(text.contains("Logged 100 ml of coffee (85 ml of hydration)."), "\(text)")
    }

    // H1: an optional note is kept with the entry and shown in the day's list.
    @Test func noteIsKept() throws {
        let tally = try Sandbox()
        let result = try tally.json(["drink", "250", "--note", "after the run"], as: EntryResultJSON.self)
        #expect(result.entry.note == "after the run")
        let today = try tally.json(["today"], as: DayJSON.self)
        #expect(today.entries.first?.note == "after the run")
        #expect(try tally.ok(["today"]).stdout.contains("after the run"))
    }

    // H1, H2: --at HH:MM is that time today in the user's zone; an ISO 8601 instant is taken as is.
    @Test func atLocalTimeAndInstant() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z") // 11:00 in Berlin (CET, UTC+1)
        let local = try tally.json(["drink", "200", "--at", "08:15"], as: EntryResultJSON.self)
        #expect(local.entry.at == utc("2025-03-12T07:15:00Z"))
        #expect(local.entry.day == "2025-03-12")

        let instant = try tally.json(["drink", "300", "--at", "2025-03-11T22:30:00Z"], as: EntryResultJSON.self)
        #expect(instant.entry.at == utc("2025-03-11T22:30:00Z"))
        #expect(instant.entry.day == "2025-03-11") // 23:30 in Berlin
        #expect(instant.day.date == "2025-03-11")

        let offset = try tally.json(["drink", "100", "--at", "2025-03-12T00:30:00+01:00"], as: EntryResultJSON.self)
        #expect(offset.entry.at == utc("2025-03-11T23:30:00Z"))
        #expect(offset.entry.day == "2025-03-12")

        let today = try tally.json(["today"], as: DayJSON.self)
        #expect(today.entries.map(\.volumeMl) == [100, 200]) // oldest first
        #expect(today.totalMl == 300)
    }

    // H1: a client-supplied id is idempotent: the same id twice gives one entry, and the second
    // run says it created nothing.
    @Test func repeatedIDLogsOnce() throws {
        let tally = try Sandbox()
        let id = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
        let first = try tally.json(["drink", "250", "--id", id], as: EntryResultJSON.self)
        #expect(first.created)
        #expect(first.entry.id == UUID(uuidString: id))
        let second = try tally.json(["drink", "250", "--id", id], as: EntryResultJSON.self)
        #expect(second.created == false)
        #expect(second.entry.id == first.entry.id)
        #expect(second.day.totalMl == 250)
        #expect(try tally.json(["today"], as: DayJSON.self).entries.count == 1)

        // A retry with another amount still returns the stored drink, never a second one.
        let text = try tally.ok(["drink", "400", "--id", id.lowercased()]).stdout
        #expect(text.hasPrefix("Already logged 250 ml of water."), "\(text)")
        let today = try tally.json(["today"], as: DayJSON.self)
        #expect(today.entries.count == 1)
        #expect(today.totalMl == 250)

        // The same id cannot be reused for a removal.
        try tally.refused(["remove", "100", "--id", id], exit: 3)
        try tally.refused(["drink", "250", "--id", "not-a-uuid"])
    }

    // A5: text output is a sentence and the day's total against the goal.
    @Test func textOutput() throws {
        let tally = try Sandbox()
        let text = try tally.ok(["drink", "500"]).stdout
        #expect(text == "Logged 500 ml of water.\n2025-03-12: 500 ml of 2500 ml (20 %)\n")
    }
}
