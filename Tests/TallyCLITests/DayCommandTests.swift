import Foundation
import Testing

/// `tally today`: a day's total, goal, percentage and entries (H2, H9, H12).
@Suite("tally today")
struct DayCommandTests {
    // A5, H2: the JSON document of a day.
    @Test func todayJSON() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "500"])
        try tally.ok(["drink", "250", "--kind", "tea", "--at", "09:00"])
        let object = try tally.object(["today"])
        for key in ["date", "totalMl", "goalMl", "percent", "entries"] {
            #expect(object[key] != nil, "missing \(key): \(object)")
        }
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.date == "2025-03-12")
        #expect(approx(day.totalMl, 500 + 250 * 0.95))
        #expect(day.goalMl == 2500) // H7: no profile → 2500 ml
        #expect(approx(day.percent, (500 + 237.5) / 2500 * 100))
        #expect(day.goalMet == false)
        #expect(day.entries.map(\.kind) == ["tea", "water"])
    }

    // H12: a day without drinks is 0 of the goal, 0 %, and an empty list that says so.
    @Test func emptyDay() throws {
        let tally = try Sandbox()
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.totalMl == 0)
        #expect(day.percent == 0)
        #expect(day.goalMl == 2500)
        #expect(day.entries.isEmpty)
        let object = try tally.object(["today"])
        #expect((object["entries"] as? [Any])?.isEmpty == true)

        let text = try tally.ok(["today"]).stdout
        #expect(text.contains("No drinks yet today."), "\(text)")
        #expect(text.contains("0 ml of 2500 ml"), "\(text)")
        #expect(text.contains("0 %"), "\(text)")
    }

    // H7, H12: with no goal only the total is shown: goalMl and percent are null.
    @Test func noGoal() throws {
        let tally = try Sandbox()
        try tally.ok(["goal", "none"])
        try tally.ok(["drink", "400"])
        let object = try tally.object(["today"])
        #expect(object["goalMl"] is NSNull, "\(object)")
        #expect(object["percent"] is NSNull, "\(object)")
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.goalMl == nil)
        #expect(day.goalMode == "none")
        #expect(day.totalMl == 400)
        #expect(day.goalMet == false)
        let text = try tally.ok(["today"]).stdout
        #expect(text.contains("400 ml (no goal)"), "\(text)")
        #expect(!text.contains("%"), "\(text)")
    }

    // H9: percentages above 100 % are not capped.
    @Test func percentAboveHundred() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "5000"])
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.percent == 200)
        #expect(day.goalMet)
        #expect(try tally.ok(["today"]).stdout.contains("200 %"))
    }

    // H2: a drink at 23:59 belongs to that day, even when viewed after midnight.
    @Test func drinkBeforeMidnightStaysOnItsDay() throws {
        // 23:59:30 in Berlin (CET, UTC+1).
        let tally = try Sandbox(now: "2025-03-12T22:59:30Z")
        let logged = try tally.json(["drink", "300", "--at", "23:59"], as: EntryResultJSON.self)
        #expect(logged.entry.day == "2025-03-12")

        tally.now = "2025-03-12T23:00:30Z" // 00:00:30 on the 13th in Berlin
        let today = try tally.json(["today"], as: DayJSON.self)
        #expect(today.date == "2025-03-13")
        #expect(today.totalMl == 0)
        #expect(today.entries.isEmpty)
        #expect(try tally.ok(["today"]).stdout.contains("No drinks yet today."))

        let yesterday = try tally.json(["today", "--date", "2025-03-12"], as: DayJSON.self)
        #expect(yesterday.date == "2025-03-12")
        #expect(yesterday.totalMl == 300)
        #expect(yesterday.entries.map(\.id) == [logged.entry.id])
        #expect(try tally.ok(["today", "--date", "2025-03-12"]).stdout.contains("23:59"))
        // H12: an empty past day does not say "today".
        #expect(try tally.ok(["today", "--date", "2025-03-11"]).stdout.contains("No drinks on this day."))
    }

    // H2: a 25-hour day (the end of summer time in Berlin) holds everything from its midnight
    // to its midnight.
    @Test func longDSTDay() throws {
        let tally = try Sandbox(now: "2025-10-26T22:59:30Z") // 23:59:30 CET on 26 October
        try tally.ok(["drink", "100", "--at", "2025-10-25T22:00:00Z"]) // 00:00 CEST on the 26th
        try tally.ok(["drink", "200", "--at", "23:59"])                 // 23:59 CET on the 26th
        try tally.ok(["drink", "400", "--at", "2025-10-25T21:59:00Z"]) // 23:59 CEST on the 25th
        let day = try tally.json(["today"], as: DayJSON.self)
        #expect(day.date == "2025-10-26")
        #expect(day.totalMl == 300)
        #expect(try tally.json(["today", "--date", "2025-10-25"], as: DayJSON.self).totalMl == 400)
    }

    // A5: --date must be a date.
    @Test func badDate() throws {
        let tally = try Sandbox()
        let message = try tally.refused(["today", "--date", "12.03.2025"])
        #expect(message.contains("YYYY-MM-DD"))
    }
}
