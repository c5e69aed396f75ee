import Foundation
import Testing
@testable import TallyCore

/// H9: the last 7 days, the month calendar and the streaks.
@Suite("History: progress, streaks, calendar (H9; seed 002)")
struct HistoryTests {
    let today = day("2025-09-15")

    func days(_ offsets: [Int]) -> [LocalDate] { offsets.map { today.adding(days: $0) } }

    // MARK: DayProgress

    @Test("H9: percentages above 100 are not capped (5000 of 2500 ml is 200 %)")
    func percentNotCapped() throws {
        let progress = DayProgress(date: today, totalMl: 5000, goal: customGoal(2500))
        #expect(try #require(progress.percent) == 200)
        #expect(progress.goalMet)
        #expect(progress.goalMl == 2500)
    }

    @Test("H9: exactly the goal is 100 % and met; a millilitre short is not",
          arguments: [(2500.0, 100.0, true), (2499, 99.96, false), (1250, 50, false), (0, 0, false), (7500, 300, true)])
    func percentAndMet(_ total: Double, _ percent: Double, _ met: Bool) throws {
        let progress = DayProgress(date: today, totalMl: total, goal: .default)
        #expect(isClose(try #require(progress.percent), percent))
        #expect(progress.goalMet == met)
    }

    @Test("H9, H5: 8 × 8 oz meets a 64 oz goal, float dust or not",
          arguments: [(8, 8.0), (64, 1), (32, 2), (10, 6.4)])
    func ouncesMeetAnOunceGoal(_ count: Int, _ ounces: Double) {
        let entries = (0..<count).map {
            intake(VolumeUnit.oz.toMilliliters(ounces), at: utc("2025-09-15T08:00:00Z") + Double($0) * 60)
        }
        let total = DailyTotal.sum(entries)
        let goal = customGoal(VolumeUnit.oz.toMilliliters(64))
        let progress = DayProgress(date: today, totalMl: total, goal: goal)
        #expect(progress.goalMet)
        #expect(isClose(progress.percent ?? 0, 100, tolerance: 1e-9))
        // One ounce short is still short.
        #expect(!DayProgress(date: today, totalMl: total - VolumeUnit.oz.toMilliliters(1), goal: goal).goalMet)
    }

    @Test("H7, H9: with no goal only the total is shown: no percent, never met")
    func noGoal() {
        let progress = DayProgress(date: today, totalMl: 9000, goal: Goal(.none, profile: nil))
        #expect(progress.goalMl == nil)
        #expect(progress.percent == nil)
        #expect(!progress.goalMet)
        #expect(progress.totalMl == 9000)
    }

    // MARK: Streaks

    @Test("H9 testGetCurrentStreakWithIncompleteToday: counted from yesterday while today is incomplete")
    func testGetCurrentStreakWithIncompleteToday() {
        let streaks = Streaks(metDays: days([-1, -2, -3]), today: today)
        #expect(streaks.current == 3)
        #expect(streaks.longest == 3)
        // The same, through the history built from totals: today has 1000 of 2500 ml so far.
        var totals: [LocalDate: Double] = [today: 1000]
        for offset in [-1, -2, -3] { totals[today.adding(days: offset)] = 2500 }
        totals[today.adding(days: -4)] = 2000
        let history = HydrationHistory(today: today, dayCount: 7, month: today.yearMonth, totals: totals, goals: GoalHistory())
        #expect(history.streaks.current == 3)
        #expect(history.streaks.longest == 3)
    }

    @Test("H9: a completed today counts in the current streak")
    func todayCompleteCounts() {
        let streaks = Streaks(metDays: days([0, -1, -2]), today: today)
        #expect(streaks.current == 3)
    }

    @Test("H9: a missed day resets the streak")
    func gapResets() {
        #expect(Streaks(metDays: days([-1, -3, -4, -5]), today: today).current == 1)
        #expect(Streaks(metDays: days([0, -2, -3]), today: today).current == 1)
        #expect(Streaks(metDays: days([-2, -3, -4]), today: today).current == 0,
                "neither today nor yesterday met: no current streak")
        #expect(Streaks(metDays: [LocalDate](), today: today).current == 0)
        #expect(Streaks(metDays: [LocalDate](), today: today).longest == 0)
    }

    @Test("H9: the longest streak is the longest run of met days, whenever it was")
    func longestStreak() {
        let streaks = Streaks(metDays: days([-1, -2, -20, -21, -22, -23, -24, -40, -41]).shuffled(), today: today)
        #expect(streaks.current == 2)
        #expect(streaks.longest == 5)
        let single = Streaks(metDays: days([-30]), today: today)
        #expect(single.current == 0)
        #expect(single.longest == 1)
    }

    @Test("H9: streaks run across month and year boundaries")
    func streaksAcrossBoundaries() {
        let newYear = day("2025-01-02")
        let met = (0..<10).map { newYear.adding(days: -$0) }  // 2024-12-24 … 2025-01-02
        let streaks = Streaks(metDays: met, today: newYear)
        #expect(streaks.current == 10)
        #expect(streaks.longest == 10)
    }

    @Test("H9: days after today count neither in the current nor in the longest streak")
    func futureDaysIgnored() {
        let streaks = Streaks(metDays: days([0, 1, 2, 3]), today: today)
        #expect(streaks.current == 1)
        #expect(streaks.longest == 1)
    }

    @Test("H7, H9: a day with no goal does not meet, so it breaks a streak")
    func noGoalDayDoesNotMeet() {
        var goals = GoalHistory()
        _ = goals.set(Goal(.none, profile: nil), today: today.adding(days: -2))
        _ = goals.set(customGoal(2500), today: today.adding(days: -1))
        var totals: [LocalDate: Double] = [:]
        for offset in -5 ... -1 { totals[today.adding(days: offset)] = 4000 }
        let history = HydrationHistory(today: today, dayCount: 7, month: today.yearMonth, totals: totals, goals: goals)
        let noGoalDay = history.days.first { $0.date == today.adding(days: -2) }
        #expect(noGoalDay?.goalMet == false)
        #expect(noGoalDay?.percent == nil)
        #expect(history.streaks.current == 1)  // only yesterday
        #expect(history.streaks.longest == 3)  // -5 … -3 under the default goal, then the no-goal day
    }

    // MARK: Last 7 days

    @Test("H9 testGetLast7DaysIntake: 7 days, oldest first, today last, days without drinks at 0")
    func testGetLast7DaysIntake() {
        let totals: [LocalDate: Double] = [
            today: 1000,
            today.adding(days: -2): 2600,
            today.adding(days: -6): 500,
            today.adding(days: -7): 9999,   // outside the 7 days
            today.adding(days: 1): 4444,    // tomorrow: not shown
        ]
        let history = HydrationHistory(today: today, dayCount: 7, month: today.yearMonth, totals: totals, goals: GoalHistory())
        #expect(history.days.count == 7)
        #expect(history.days.map(\.date) == (-6...0).map { today.adding(days: $0) })
        #expect(history.days.map(\.totalMl) == [500, 0, 0, 0, 2600, 0, 1000])
        #expect(history.days.map(\.goalMet) == [false, false, false, false, true, false, false])
        #expect(history.days.allSatisfy { $0.goalMl == 2500 })
        #expect(history.days.first?.percent == 20)
    }

    @Test("H9: the last days run back across a month and a leap day")
    func lastDaysAcrossMonths() {
        let history = HydrationHistory(today: day("2024-03-02"), dayCount: 7, month: YearMonth(year: 2024, month: 3)!,
                                       totals: [:], goals: GoalHistory())
        #expect(history.days.map(\.date.description) ==
                ["2024-02-25", "2024-02-26", "2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
        #expect(history.days.allSatisfy { $0.totalMl == 0 && $0.percent == 0 })
    }

    @Test("H9: the number of days is what was asked for", arguments: [1, 7, 30, 366])
    func dayCount(_ count: Int) {
        #expect(HydrationHistory.dayCountRange.contains(count))
        let history = HydrationHistory(today: today, dayCount: count, month: today.yearMonth, totals: [:], goals: GoalHistory())
        #expect(history.days.count == count)
        #expect(history.days.last?.date == today)
        #expect(history.days.first?.date == today.adding(days: 1 - count))
    }

    // MARK: Month calendar

    @Test("H9: a calendar has a cell for each day of its month",
          arguments: [("2024-02", 29), ("2025-02", 28), ("2025-04", 30), ("2025-12", 31), ("2000-02", 29), ("2100-02", 28)])
    func calendarDayCount(_ text: String, _ count: Int) {
        let calendar = MonthCalendar(month: month(text), today: today, totals: [:], goals: GoalHistory())
        #expect(calendar.days.count == count)
        #expect(calendar.days.first?.progress.date == month(text).firstDay)
        #expect(calendar.days.last?.progress.date == month(text).lastDay)
    }

    @Test("H9: the weekday of the 1st, Monday 1 … Sunday 7",
          arguments: [("2025-09", 1), ("2025-06", 7), ("2025-10", 3), ("2024-02", 4), ("2025-02", 6)])
    func firstWeekday(_ text: String, _ weekday: Int) {
        #expect(MonthCalendar(month: month(text), today: today, totals: [:], goals: GoalHistory()).firstWeekday == weekday)
    }

    @Test("H9: previous and next month, across year boundaries")
    func calendarNavigation() {
        let january = MonthCalendar(month: month("2025-01"), today: today, totals: [:], goals: GoalHistory())
        #expect(january.previous == month("2024-12"))
        #expect(january.next == month("2025-02"))
        let december = MonthCalendar(month: month("2024-12"), today: today, totals: [:], goals: GoalHistory())
        #expect(december.previous == month("2024-11"))
        #expect(december.next == month("2025-01"))
    }

    @Test("H9: the calendar marks today, the future, and each day that met its goal")
    func calendarMarks() throws {
        var goals = GoalHistory()
        _ = goals.set(customGoal(3000), today: day("2025-09-10"))
        let totals: [LocalDate: Double] = [
            day("2025-09-01"): 2500,   // default 2500: met
            day("2025-09-09"): 2000,   // not met
            day("2025-09-12"): 2500,   // goal 3000 by then: not met
            day("2025-09-14"): 6000,   // met, 200 %
            day("2025-09-15"): 3000,   // today, met
            day("2025-08-31"): 3000,   // another month: not in the calendar
        ]
        let calendar = MonthCalendar(month: month("2025-09"), today: today, totals: totals, goals: goals)
        let byDay = Dictionary(uniqueKeysWithValues: calendar.days.map { ($0.progress.date.day, $0) })
        let met = calendar.days.filter(\.progress.goalMet).map(\.progress.date.day)
        #expect(met == [1, 14, 15])
        #expect(try #require(byDay[14]).progress.percent == 200)
        #expect(try #require(byDay[12]).progress.goalMl == 3000)
        #expect(try #require(byDay[9]).progress.goalMl == 2500)
        #expect(calendar.days.filter(\.isToday).map(\.progress.date) == [today])
        #expect(calendar.days.filter(\.isFuture).map(\.progress.date.day) == Array(16...30))
        #expect(!(try #require(byDay[14]).isFuture))
        #expect(!(try #require(byDay[15]).isFuture))
    }

    @Test("H9: a past month has no today and no future days; a coming month is all future")
    func calendarPastAndFuture() {
        let past = MonthCalendar(month: month("2025-08"), today: today, totals: [:], goals: GoalHistory())
        #expect(!past.days.contains { $0.isToday || $0.isFuture })
        let coming = MonthCalendar(month: month("2025-10"), today: today, totals: [:], goals: GoalHistory())
        #expect(coming.days.allSatisfy { $0.isFuture && !$0.isToday })
    }

    @Test("H9: the history's calendar is the month asked for")
    func historyCalendar() {
        let history = HydrationHistory(today: today, dayCount: 7, month: month("2025-02"), totals: [:], goals: GoalHistory())
        #expect(history.calendar.month == month("2025-02"))
        #expect(history.calendar.days.count == 28)
    }
}
