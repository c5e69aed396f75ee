import Foundation

/// A day's total against the goal in force that day.
public struct DayProgress: Equatable, Sendable {
    public var date: LocalDate
    public var totalMl: Double
    /// nil when the person had chosen no goal.
    public var goalMl: Double?
    /// Total ÷ goal × 100, not capped (200 % shows as 200); nil without a goal.
    public var percent: Double?
    /// Whether the total reached 100 % of the goal (never, without a goal).
    public var goalMet: Bool

    /// Progress as it was worked out elsewhere (the API's answer, read by a client).
    public init(date: LocalDate, totalMl: Double, goalMl: Double?, percent: Double?, goalMet: Bool) {
        (self.date, self.totalMl, self.goalMl, self.percent, self.goalMet) = (date, totalMl, goalMl, percent, goalMet)
    }

    public init(date: LocalDate, totalMl: Double, goal: Goal) {
        self.date = date
        self.totalMl = totalMl
        self.goalMl = goal.targetMl
        if let target = goal.targetMl, target > 0 {
            percent = totalMl / target * 100
            // Totals are sums of floats: 8 × 8 oz must meet a 64 oz goal.
            goalMet = totalMl + 1e-6 >= target
        } else {
            percent = nil
            goalMet = false
        }
    }
}

/// Days in a row that met their goal (H9).
public struct Streaks: Equatable, Sendable {
    /// Consecutive met days up to today, or up to yesterday while today is not yet met.
    public var current: Int
    public var longest: Int

    /// `metDays` are the days that met their goal, in any order.
    public init(current: Int, longest: Int) {
        (self.current, self.longest) = (current, longest)
    }

    public init(metDays: some Sequence<LocalDate>, today: LocalDate) {
        let days = Set(metDays)
        var current = 0
        var day = days.contains(today) ? today : today.adding(days: -1)
        while days.contains(day) {
            current += 1
            day = day.adding(days: -1)
        }
        var longest = 0
        var run = 0
        var previous: LocalDate?
        for day in days.filter({ $0 <= today }).sorted() {
            run = previous.map { $0.adding(days: 1) == day } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        self.current = current
        self.longest = longest
    }
}

/// A month laid out as a calendar, each day marked when it met its goal (H9).
public struct MonthCalendar: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public var progress: DayProgress
        /// Days after today cannot have met anything yet.
        public var isFuture: Bool
        public var isToday: Bool

        public init(progress: DayProgress, isFuture: Bool, isToday: Bool) {
            (self.progress, self.isFuture, self.isToday) = (progress, isFuture, isToday)
        }
    }

    public var month: YearMonth
    public var previous: YearMonth
    public var next: YearMonth
    public var days: [Day]
    /// Weekday of the 1st, Monday 1 … Sunday 7, for laying out the first row.
    public var firstWeekday: Int

    /// A calendar as it was worked out elsewhere (the API's answer, read by a client).
    public init(month: YearMonth, previous: YearMonth, next: YearMonth, days: [Day], firstWeekday: Int) {
        (self.month, self.previous, self.next, self.days, self.firstWeekday) = (month, previous, next, days, firstWeekday)
    }

    public init(month: YearMonth, today: LocalDate, totals: [LocalDate: Double], goals: GoalHistory) {
        self.month = month
        previous = month.previous
        next = month.next
        firstWeekday = month.firstDay.isoWeekday
        days = month.days.map { date in
            Day(progress: DayProgress(date: date, totalMl: totals[date] ?? 0, goal: goals.goal(on: date)),
                isFuture: date > today, isToday: date == today)
        }
    }
}

/// Everything the history screen shows (H9).
public struct HydrationHistory: Equatable, Sendable {
    /// The last `n` days, oldest first, today last; days without drinks show 0.
    public var days: [DayProgress]
    public var calendar: MonthCalendar
    public var streaks: Streaks

    /// - Parameters:
    ///   - totals: every day's total that the days, the calendar and the streaks need; days
    ///     missing from it had no entries.
    public init(days: [DayProgress], calendar: MonthCalendar, streaks: Streaks) {
        (self.days, self.calendar, self.streaks) = (days, calendar, streaks)
    }

    public init(today: LocalDate, dayCount: Int, month: YearMonth, totals: [LocalDate: Double], goals: GoalHistory) {
        days = (0..<dayCount).reversed().map { back in
            let date = today.adding(days: -back)
            return DayProgress(date: date, totalMl: totals[date] ?? 0, goal: goals.goal(on: date))
        }
        calendar = MonthCalendar(month: month, today: today, totals: totals, goals: goals)
        let met = totals.lazy
            .filter { date, total in DayProgress(date: date, totalMl: total, goal: goals.goal(on: date)).goalMet }
            .map(\.key)
        streaks = Streaks(metDays: met, today: today)
    }

    public static let dayCountRange = 1...366
}
