import Foundation
import Testing

/// `tally history`: the last days, the month calendar and the streaks (H9).
@Suite("tally history")
struct HistoryCommandTests {
    // H9: the last 7 days, oldest first and today last; days without drinks show 0.
    @Test func lastSevenDays() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z")
        try tally.ok(["drink", "750", "--at", "2025-03-08T12:00:00Z"])
        try tally.ok(["drink", "300"])
        let history = try tally.json(["history"], as: HistoryJSON.self)
        #expect(history.days.map(\.date) == (6...12).map { String(format: "2025-03-%02d", $0) })
        #expect(history.days.map(\.totalMl) == [0, 0, 750, 0, 0, 0, 300])
        #expect(history.days.allSatisfy { $0.goalMl == 2500 })
        #expect(history.days[0].percent == 0)
        #expect(try tally.json(["history", "--days", "3"], as: HistoryJSON.self).days.map(\.date)
                == ["2025-03-10", "2025-03-11", "2025-03-12"])
        try tally.refused(["history", "--days", "0"])
    }

    // H9: the current streak counts from yesterday while today is incomplete; the longest streak
    // is kept.
    @Test func streaks() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z")
        for day in ["09", "10", "11"] {
            try tally.ok(["drink", "2500", "--at", "2025-03-\(day)T09:00:00Z"])
        }
        try tally.ok(["drink", "2400", "--at", "2025-03-08T09:00:00Z"]) // 96 %: not met
        for day in ["01", "02", "03", "04"] {
            try tally.ok(["drink", "3000", "--at", "2025-03-\(day)T09:00:00Z"])
        }
        try tally.ok(["drink", "500"]) // today: incomplete
        var history = try tally.json(["history"], as: HistoryJSON.self)
        #expect(history.streaks.current == 3)
        #expect(history.streaks.longest == 4)
        #expect(history.days.suffix(4).map(\.goalMet) == [true, true, true, false])
        #expect(try tally.ok(["history"]).stdout.contains("Current streak: 3 days · Longest: 4 days"))

        // Meeting today's goal extends the current streak to today.
        try tally.ok(["drink", "2000"])
        history = try tally.json(["history"], as: HistoryJSON.self)
        #expect(history.streaks.current == 4)
        #expect(history.streaks.longest == 4)

        // The calendar marks the days that met their goal.
        let met = history.calendar.days.filter(\.progress.goalMet).map(\.progress.date)
        #expect(met == ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04",
                        "2025-03-09", "2025-03-10", "2025-03-11", "2025-03-12"])
        #expect(history.calendar.days.first { $0.isToday }?.progress.date == "2025-03-12")
        #expect(history.calendar.days.filter(\.isFuture).count == 19)
    }

    // H9: a month calendar for any month, with previous and next.
    @Test func monthCalendar() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z")
        try tally.ok(["drink", "2500", "--at", "2025-02-14T12:00:00Z"])
        let history = try tally.json(["history", "--month", "2025-02"], as: HistoryJSON.self)
        #expect(history.calendar.month == "2025-02")
        #expect(history.calendar.previous == "2025-01")
        #expect(history.calendar.next == "2025-03")
        #expect(history.calendar.days.count == 28)
        #expect(history.calendar.firstWeekday == 6) // 1 February 2025 was a Saturday
        #expect(history.calendar.days.first?.progress.date == "2025-02-01")
        #expect(history.calendar.days.last?.progress.date == "2025-02-28")
        #expect(history.calendar.days.filter(\.progress.goalMet).map(\.progress.date) == ["2025-02-14"])
        #expect(!history.calendar.days.contains { $0.isFuture })

        #expect(try tally.json(["history", "--month", "2024-02"], as: HistoryJSON.self).calendar.days.count == 29)
        let text = try tally.ok(["history", "--month", "2025-02"]).stdout
        #expect(text.contains("February 2025"), "\(text)")
        #expect(try tally.refused(["history", "--month", "2025-13"]).contains("YYYY-MM"))
    }
}
