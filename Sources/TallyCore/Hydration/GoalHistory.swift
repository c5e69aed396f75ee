import Foundation

/// Every goal a person has had, each with its start and end (H8), so that each past day is
/// judged against the goal in force on that day.
public struct GoalHistory: Equatable, Sendable {
    /// Oldest first; periods never overlap and no two share a start date.
    public private(set) var periods: [GoalPeriod]

    public init(periods: [GoalPeriod] = []) {
        self.periods = periods.sorted { $0.start < $1.start }
    }

    /// The goal in force on `day`; before the first recorded goal, the default one.
    public func goal(on day: LocalDate) -> Goal {
        // Periods are sorted: the last one starting on or before `day` is the candidate.
        var low = 0, high = periods.count
        while low < high {
            let mid = (low + high) / 2
            if periods[mid].start <= day { low = mid + 1 } else { high = mid }
        }
        guard low > 0, periods[low - 1].contains(day) else { return .default }
        return periods[low - 1].goal
    }

    public var current: Goal { periods.last?.goal ?? .default }

    /// What storing a new goal on `today` changes.
    public enum Change: Equatable, Sendable {
        /// Nothing: the goal is already this one.
        case unchanged
        /// Today's goal is replaced: it started today (or, after a clock or zone change, later).
        case replaceCurrent(GoalPeriod)
        /// The current goal (if any) ends yesterday and a new one starts today.
        case endCurrentAndStart(ended: GoalPeriod?, started: GoalPeriod)
    }

    /// Applies H8: changing the goal on a day other than the current goal's start ends the current
    /// goal yesterday and starts a new one today; changing it again that day replaces today's.
    public mutating func set(_ goal: Goal, today: LocalDate) -> Change {
        guard let last = periods.last else {
            if goal == .default { return .unchanged }
            let started = GoalPeriod(start: today, end: nil, goal: goal)
            periods.append(started)
            return .endCurrentAndStart(ended: nil, started: started)
        }
        if last.goal == goal { return .unchanged }
        if last.start >= today {
            periods[periods.count - 1].goal = goal
            return .replaceCurrent(periods[periods.count - 1])
        }
        periods[periods.count - 1].end = today.adding(days: -1)
        let started = GoalPeriod(start: today, end: nil, goal: goal)
        periods.append(started)
        return .endCurrentAndStart(ended: periods[periods.count - 2], started: started)
    }
}
