import Foundation
import Testing
@testable import TallyCore

/// H8: goals have a start and an end date; every past day is judged against the goal of that day.
@Suite("Goal history (H8; seed 003)")
struct GoalHistoryTests {
    let monday = day("2025-06-02")
    let a = customGoal(2000)
    let b = customGoal(3000)
    let c = customGoal(1800)

    /// H8 invariants: sorted, no two periods share a start, only the last is open, and each ends
    /// the day before the next starts.
    func checkInvariants(_ history: GoalHistory, sourceLocation: SourceLocation = #_sourceLocation) {
        let periods = history.periods
        #expect(Set(periods.map(\.start)).count == periods.count, "no two goals share a start", sourceLocation: sourceLocation)
        #expect(periods.map(\.start) == periods.map(\.start).sorted(), sourceLocation: sourceLocation)
        for (earlier, later) in zip(periods, periods.dropFirst()) {
            #expect(earlier.end == later.start.adding(days: -1), sourceLocation: sourceLocation)
        }
        if let last = periods.last {
            #expect(last.end == nil, "the goal in force now has no end", sourceLocation: sourceLocation)
        }
    }

    @Test("H8: with no history every day has the default goal")
    func emptyHistory() {
        let history = GoalHistory()
        #expect(history.periods.isEmpty)
        #expect(history.current == .default)
        #expect(history.goal(on: monday) == .default)
        #expect(history.goal(on: day("1970-01-01")) == .default)
    }

    @Test("H8: the first change starts a goal today; the days before keep the default")
    func firstChange() {
        var history = GoalHistory()
        let change = history.set(a, today: monday)
        #expect(change == .endCurrentAndStart(ended: nil, started: GoalPeriod(start: monday, end: nil, goal: a)))
        #expect(history.periods == [GoalPeriod(start: monday, end: nil, goal: a)])
        #expect(history.current == a)
        #expect(history.goal(on: monday) == a)
        #expect(history.goal(on: monday.adding(days: 100)) == a)
        #expect(history.goal(on: monday.adding(days: -1)) == .default)
        checkInvariants(history)
    }

    @Test("H8: choosing the default goal on a fresh history changes nothing")
    func defaultOnFreshHistory() {
        var history = GoalHistory()
        #expect(history.set(.default, today: monday) == .unchanged)
        #expect(history.periods.isEmpty)
    }

    @Test("H8: changing the goal twice in one day replaces today's goal")
    func twiceInOneDay() {
        var history = GoalHistory()
        _ = history.set(a, today: monday)
        let change = history.set(b, today: monday)
        #expect(change == .replaceCurrent(GoalPeriod(start: monday, end: nil, goal: b)))
        #expect(history.periods == [GoalPeriod(start: monday, end: nil, goal: b)])
        #expect(history.goal(on: monday) == b)
        checkInvariants(history)
    }

    @Test("H8: a change on a later day ends the previous goal yesterday and starts the new one today")
    func changeOnALaterDay() {
        var history = GoalHistory()
        _ = history.set(a, today: monday)
        let friday = monday.adding(days: 4)
        let change = history.set(b, today: friday)
        #expect(change == .endCurrentAndStart(
            ended: GoalPeriod(start: monday, end: friday.adding(days: -1), goal: a),
            started: GoalPeriod(start: friday, end: nil, goal: b)))
        #expect(history.periods.count == 2)
        #expect(history.goal(on: monday.adding(days: -1)) == .default)
        #expect(history.goal(on: monday) == a)
        #expect(history.goal(on: friday.adding(days: -1)) == a)
        #expect(history.goal(on: friday) == b)
        #expect(history.current == b)
        checkInvariants(history)
    }

    @Test("H8: a change the day after the previous one leaves the previous goal one day long")
    func oneDayGoal() {
        var history = GoalHistory()
        _ = history.set(a, today: monday)
        _ = history.set(b, today: monday.adding(days: 1))
        #expect(history.periods.first == GoalPeriod(start: monday, end: monday, goal: a))
        checkInvariants(history)
    }

    @Test("H8: setting the goal in force again changes nothing")
    func sameGoalUnchanged() {
        var history = GoalHistory()
        _ = history.set(a, today: monday)
        let before = history
        #expect(history.set(customGoal(2000), today: monday.adding(days: 3)) == .unchanged)
        #expect(history == before)
        #expect(history.set(a, today: monday) == .unchanged)
        #expect(history == before)
    }

    @Test("H8: many changes over many days keep the history consistent")
    func manyChanges() {
        var history = GoalHistory()
        let goals = [a, b, b, c, .default, Goal(.none, profile: nil), a, c]
        let offsets = [0, 0, 1, 3, 3, 10, 11, 11]
        for (goal, offset) in zip(goals, offsets) {
            _ = history.set(goal, today: monday.adding(days: offset))
            checkInvariants(history)
        }
        // Day 0: b (a replaced the same day); days 1–2: b (unchanged); days 3–9: default
        // (c replaced the same day); day 10: none; day 11 on: c (a replaced the same day).
        #expect(history.periods.map(\.start) == [0, 3, 10, 11].map { monday.adding(days: $0) })
        #expect(history.goal(on: monday) == b)
        #expect(history.goal(on: monday.adding(days: 2)) == b)
        #expect(history.goal(on: monday.adding(days: 3)) == .default)
        #expect(history.goal(on: monday.adding(days: 9)) == .default)
        #expect(history.goal(on: monday.adding(days: 10)).mode == .none)
        #expect(history.goal(on: monday.adding(days: 11)) == c)
        #expect(history.goal(on: monday.adding(days: 400)) == c)
    }

    @Test("H8: periods given in any order are sorted, and looked up by day")
    func initSortsPeriods() {
        let history = GoalHistory(periods: [
            GoalPeriod(start: day("2025-03-01"), end: nil, goal: c),
            GoalPeriod(start: day("2025-01-01"), end: day("2025-01-31"), goal: a),
            GoalPeriod(start: day("2025-02-01"), end: day("2025-02-28"), goal: b),
        ])
        #expect(history.periods.map(\.start) == [day("2025-01-01"), day("2025-02-01"), day("2025-03-01")])
        #expect(history.goal(on: day("2024-12-31")) == .default)
        #expect(history.goal(on: day("2025-01-01")) == a)
        #expect(history.goal(on: day("2025-01-31")) == a)
        #expect(history.goal(on: day("2025-02-01")) == b)
        #expect(history.goal(on: day("2025-02-28")) == b)
        #expect(history.goal(on: day("2025-03-01")) == c)
        #expect(history.current == c)
    }

    @Test("H8: a day in a gap between stored periods falls back to the default")
    func gapFallsBackToDefault() {
        let history = GoalHistory(periods: [
            GoalPeriod(start: day("2025-01-01"), end: day("2025-01-10"), goal: a),
            GoalPeriod(start: day("2025-01-20"), end: nil, goal: b),
        ])
        #expect(history.goal(on: day("2025-01-15")) == .default)
        #expect(history.goal(on: day("2025-01-10")) == a)
        #expect(history.goal(on: day("2025-01-20")) == b)
    }

    @Test("H8: every past day is judged against the goal in force that day")
    func pastDaysJudgedByTheirGoal() {
        var history = GoalHistory()
        _ = history.set(a, today: monday)                     // 2000 from Monday
        _ = history.set(b, today: monday.adding(days: 3))     // 3000 from Thursday
        let today = monday.adding(days: 5)
        let totals = [monday.adding(days: -1): 2200.0,        // default 2500: not met
                      monday.adding(days: 1): 2500.0,         // 2000: met
                      monday.adding(days: 4): 2500.0]         // 3000: not met
        let past = HydrationHistory(today: today, dayCount: 7, month: today.yearMonth, totals: totals, goals: history)
        let byDate = Dictionary(uniqueKeysWithValues: past.days.map { ($0.date, $0) })
        #expect(byDate[monday.adding(days: -1)]?.goalMl == 2500)
        #expect(byDate[monday.adding(days: -1)]?.goalMet == false)
        #expect(byDate[monday.adding(days: 1)]?.goalMl == 2000)
        #expect(byDate[monday.adding(days: 1)]?.goalMet == true)
        #expect(byDate[monday.adding(days: 4)]?.goalMl == 3000)
        #expect(byDate[monday.adding(days: 4)]?.goalMet == false)
        // A later goal change does not rewrite how an earlier day is judged.
        _ = history.set(customGoal(5000), today: today)
        #expect(history.goal(on: monday.adding(days: 1)) == a)
    }

    @Test("H8: a period contains the days from its start to its end, both included")
    func periodContains() {
        let closed = GoalPeriod(start: day("2025-01-01"), end: day("2025-01-03"), goal: a)
        #expect(!closed.contains(day("2024-12-31")))
        #expect(closed.contains(day("2025-01-01")))
        #expect(closed.contains(day("2025-01-03")))
        #expect(!closed.contains(day("2025-01-04")))
        let open = GoalPeriod(start: day("2025-01-01"), end: nil, goal: a)
        #expect(open.contains(day("2099-01-01")))
    }
}
