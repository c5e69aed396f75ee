import Foundation

/// What a person chose as their daily goal (H7).
public enum GoalChoice: Equatable, Sendable {
    /// Computed from the profile (2500 ml without one).
    case automatic
    /// A goal the person typed, overriding the computed one.
    case custom(ml: Double)
    /// No goal at all: only the total is shown.
    case none

    /// A custom goal a person could mean: a glass a day up to ten litres.
    public static let customRange = 250.0...10_000.0

    public static func validateCustom(_ ml: Double, unit: VolumeUnit) throws {
        guard ml.isFinite, customRange.contains(ml) else {
            throw TallyError.invalid(
                "A daily goal must be between \(unit.format(customRange.lowerBound)) and \(unit.format(customRange.upperBound)); \(unit.format(ml)) is not.")
        }
    }
}

/// A goal as it stands in the history: the choice and, unless there is none, its amount.
public struct Goal: Equatable, Sendable {
    public enum Mode: String, NamedChoice, Sendable {
        case automatic = "auto"
        case custom
        case none
    }

    public var mode: Mode
    /// nil when the person chose no goal.
    public var targetMl: Double?

    public init(mode: Mode, targetMl: Double?) {
        self.mode = mode
        self.targetMl = targetMl
    }

    /// The goal of `choice` for someone with `profile`.
    public init(_ choice: GoalChoice, profile: Profile?) {
        switch choice {
        case .automatic: self.init(mode: .automatic, targetMl: GoalCalculator.automaticGoalMl(for: profile))
        case .custom(let ml): self.init(mode: .custom, targetMl: ml)
        case .none: self.init(mode: .none, targetMl: nil)
        }
    }

    /// The goal of someone who never chose one.
    public static let `default` = Goal(mode: .automatic, targetMl: GoalCalculator.defaultGoalMl)

    public var choice: GoalChoice {
        switch mode {
        case .automatic: .automatic
        case .custom: .custom(ml: targetMl ?? GoalCalculator.defaultGoalMl)
        case .none: .none
        }
    }
}

/// A goal and the days it was in force (H8). `end` is nil for the goal in force now.
public struct GoalPeriod: Equatable, Sendable {
    public var start: LocalDate
    public var end: LocalDate?
    public var goal: Goal

    public init(start: LocalDate, end: LocalDate?, goal: Goal) {
        self.start = start
        self.end = end
        self.goal = goal
    }

    public func contains(_ day: LocalDate) -> Bool {
        start <= day && (end.map { day <= $0 } ?? true)
    }
}
