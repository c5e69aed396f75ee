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
}
