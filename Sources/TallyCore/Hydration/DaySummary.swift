import Foundation

/// Everything the today screen shows for one day (H2, H9, H12).
public struct DaySummary: Equatable, Sendable {
    public var date: LocalDate
    public var totalMl: Double
    /// nil when the person chose no goal: then only the total is shown.
    public var goalMl: Double?
    public var goalMode: Goal.Mode
    /// Not capped: 200 % is 200.
    public var percent: Double?
    public var goalMet: Bool
    public var unit: VolumeUnit
    /// The day's drinks and removals, oldest first. Empty on a day with nothing logged.
    public var entries: [DayEntry]

    public init(date: LocalDate, entries: [DayEntry], goal: Goal, unit: VolumeUnit) {
        let progress = DayProgress(date: date, totalMl: DailyTotal.sum(entries), goal: goal)
        self.date = date
        self.totalMl = progress.totalMl
        self.goalMl = progress.goalMl
        self.goalMode = goal.mode
        self.percent = progress.percent
        self.goalMet = progress.goalMet
        self.unit = unit
        self.entries = entries.sorted(by: DayEntry.happenedBefore)
    }

    /// A summary as it was worked out elsewhere (the API's answer, read by a client).
    public init(date: LocalDate, totalMl: Double, goalMl: Double?, goalMode: Goal.Mode, percent: Double?, goalMet: Bool,
                unit: VolumeUnit, entries: [DayEntry]) {
        (self.date, self.totalMl, self.goalMl, self.goalMode) = (date, totalMl, goalMl, goalMode)
        (self.percent, self.goalMet, self.unit, self.entries) = (percent, goalMet, unit, entries)
    }

    /// What an empty day says (H12).
    public static func emptyMessage(isToday: Bool) -> String {
        isToday ? "No drinks yet today." : "No drinks on this day."
    }
}
