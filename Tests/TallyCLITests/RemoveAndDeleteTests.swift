import Foundation
import Testing

/// `tally remove` and `tally delete` (H1, H3).
@Suite("tally remove and delete")
struct RemoveAndDeleteTests {
    // H3: a removal is a negative adjustment on the day: it lowers the total.
    @Test func removeLowersTheTotal() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "500"])
        let result = try tally.json(["remove", "200"], as: EntryResultJSON.self)
        #expect(result.created)
        #expect(result.entry.type == "removal")
        #expect(result.entry.volumeMl == 200)
        #expect(result.entry.effectiveMl == -200)
        #expect(result.day.totalMl == 300)
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.totalMl == 300)
        #expect(day.entries.map(\.type) == ["intake", "removal"])
        // Removing exactly what is there is allowed: the total reaches 0, never below.
        #expect(try tally.json(["remove", "300ml"], as: EntryResultJSON.self).day.totalMl == 0)
    }

    // H3: a removal larger than the day's total is refused with how much can be removed, and a
    // refused command changes nothing.
    @Test func removalLargerThanTheTotalIsRefused() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "400"])
        try tally.ok(["remove", "100"])
        let message = try tally.refused(["remove", "301"], exit: 3)
        #expect(message.contains("at most 300 ml"), "\(message)")
        #expect(try tally.json(["today"], as: DayJSON.self).totalMl == 300)

        // On an empty day nothing can be removed.
        let empty = try tally.refused(["remove", "50", "--at", "2025-03-10T12:00:00Z"], exit: 3)
        #expect(empty.contains("at most 0 ml"), "\(empty)")
    }

    // H3, H5: in oz the refusal names the most in oz.
    @Test func removalRefusalInOunces() throws {
        let tally = try Sandbox()
        try tally.ok(["settings", "set", "unit", "oz"])
        try tally.ok(["drink", "8"])
        let message = try tally.refused(["remove", "10"], exit: 3)
        #expect(message.contains("at most 8 oz"), "\(message)")
    }

    // H1: an entry is deleted by its full id.
    @Test func deleteByFullID() throws {
        let tally = try Sandbox()
        let drink = try tally.json(["drink", "300"], as: EntryResultJSON.self)
        try tally.ok(["drink", "200"])
        let deleted = try tally.json(["delete", drink.entry.id.uuidString], as: DeletedJSON.self)
        #expect(deleted.deleted.id == drink.entry.id)
        #expect(deleted.day.totalMl == 200)
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.totalMl == 200)
        #expect(!day.entries.contains { $0.id == drink.entry.id })
        // Deleted twice: it is not there any more.
        try tally.refused(["delete", drink.entry.id.uuidString], exit: 2)
    }

    // H1, A5: the 8-character prefix that `today` prints is enough to delete an entry.
    @Test func deleteByShownPrefix() throws {
        let tally = try Sandbox()
        let drink = try tally.json(["drink", "330", "--at", "09:41"], as: EntryResultJSON.self)
        let text = try tally.ok(["today"]).stdout
        let line = try #require(text.split(separator: "\n").first { $0.contains("09:41") }, "\(text)")
        let prefix = String(drink.entry.id.uuidString.prefix(8)).lowercased()
        let shown = try #require(line.split(separator: " ").last { $0.count == 8 && $0.allSatisfy(\.isHexDigit) })
        #expect(String(shown) == prefix, "\(line)")

        let deleted = try tally.ok(["delete", String(shown)]).stdout
        #expect(deleted.hasPrefix("Deleted 330 ml of water."), "\(deleted)")
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.entries.isEmpty)
        #expect(day.totalMl == 0)
    }

    // H3: a removal can be deleted too, which gives the water back.
    @Test func deleteRemoval() throws {
        let tally = try Sandbox()
        let drinkID = try tally.json(["drink", "500"], as: EntryResultJSON.self).entry.id
        let removal = try tally.json(["remove", "200"], as: EntryResultJSON.self)
        // The drink cannot go while the removal needs its water.
        try tally.refused(["delete", drinkID.uuidString], exit: 3)
        let deleted = try tally.json(["delete", removal.entry.id.uuidString], as: DeletedJSON.self)
        #expect(deleted.deleted.type == "removal")
        #expect(deleted.day.totalMl == 500)
    }

    // H2: an entry keeps the day it was logged on; deleting it after a time-zone change updates
    // and shows that day, not the day its instant falls on in the new zone.
    @Test func deleteAfterTimeZoneChange() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z")
        let late = try tally.json(["drink", "300", "--at", "2025-03-11T22:30:00Z"], as: EntryResultJSON.self)
        try tally.ok(["drink", "200", "--at", "2025-03-11T12:00:00Z"])
        #expect(late.entry.day == "2025-03-11") // 23:30 in Berlin
        try tally.ok(["settings", "set", "timezone", "Asia/Tokyo"]) // 22:30Z is 07:30 on the 12th there
        #expect(try tally.json(["today", "--date", "2025-03-11"], as: DayJSON.self).totalMl == 500)

        let deleted = try tally.json(["delete", late.entry.id.uuidString], as: DeletedJSON.self)
        #expect(deleted.day.date == "2025-03-11")
        #expect(deleted.day.totalMl == 200)
        #expect(try tally.json(["today", "--date", "2025-03-11"], as: DayJSON.self).totalMl == 200)
    }

    // H1: a drink can be edited: amount, kind (with its current factor), time and note.
    @Test func editDrink() throws {
        let tally = try Sandbox()
        let drink = try tally.json(["drink", "300", "--note", "lunch"], as: EntryResultJSON.self)
        let id = drink.entry.id.uuidString
        let amount = try tally.json(["edit", id, "--amount", "400"], as: EntryResultJSON.self)
        #expect(amount.entry.volumeMl == 400)
        #expect(amount.day.totalMl == 400)
        let kind = try tally.json(["edit", String(id.prefix(8)).lowercased(), "--kind", "coffee"], as: EntryResultJSON.self)
        #expect(approx(kind.entry.effectiveMl, 340))
        let note = try tally.json(["edit", id, "--note", ""], as: EntryResultJSON.self)
        #expect(note.entry.note == nil)
        let moved = try tally.json(["edit", id, "--at", "2025-03-11T09:00:00Z"], as: EntryResultJSON.self)
        #expect(moved.entry.day == "2025-03-11")
        #expect(moved.day.date == "2025-03-11")
        #expect(try tally.json(["today"], as: DayJSON.self).entries.isEmpty)
        #expect(try tally.json(["today", "--date", "2025-03-11"], as: DayJSON.self).entries.map(\.id) == [drink.entry.id])

        try tally.refused(["edit", id, "--amount", "0"])
        try tally.refused(["edit", id, "--at", "23:00"])
        try tally.refused(["edit", id, "--kind", "beer"], exit: 2)
        try tally.refused(["edit", "00000000-0000-0000-0000-000000000000", "--amount", "100"], exit: 2)
    }

    // A5: an unknown id is "not found" (exit 2); a malformed one is refused.
    @Test func unknownID() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "250"])
        let message = try tally.refused(["delete", "00000000-0000-0000-0000-000000000000"], exit: 2)
        #expect(message.contains("00000000-0000-0000-0000-000000000000"))
        try tally.refused(["delete", "ffffffff"], exit: 2)
        try tally.refused(["delete", "ab"], exit: 1)
    }
}
