import Foundation

/// A computed daily goal and how it was reached (H7).
public struct GoalBreakdown: Equatable, Sendable {
    /// Weight × 30 ml/kg (under 65) or × 25 ml/kg (65 and over).
    public var baseMl: Double
    public var mlPerKg: Double
    public var bonusMl: Double
    /// The goal after clamping to 1500–4500 ml.
    public var goalMl: Double
    /// Whether base + bonus fell outside the range and was moved to its nearest end.
    public var clamped: Bool

    public init(baseMl: Double, mlPerKg: Double, bonusMl: Double, goalMl: Double, clamped: Bool) {
        (self.baseMl, self.mlPerKg, self.bonusMl, self.goalMl, self.clamped) = (baseMl, mlPerKg, bonusMl, goalMl, clamped)
    }
}

/// The goal calculator of seed 002 (H7).
public enum GoalCalculator {
    public static let range = 1500.0...4500.0
    /// The goal of someone who has not given a profile.
    public static let defaultGoalMl = 2500.0
    public static let seniorAge = 65

    public static func goal(for profile: Profile) -> GoalBreakdown {
        let mlPerKg = profile.age < seniorAge ? 30.0 : 25.0
        let base = profile.weightKg * mlPerKg
        let bonus = profile.activity.bonusMl
        let raw = base + bonus
        let goal = min(max(raw, range.lowerBound), range.upperBound)
        return GoalBreakdown(baseMl: base, mlPerKg: mlPerKg, bonusMl: bonus, goalMl: goal, clamped: goal != raw)
    }

    /// The goal of someone with `profile`, or the default without one.
    public static func automaticGoalMl(for profile: Profile?) -> Double {
        profile.map { goal(for: $0).goalMl } ?? defaultGoalMl
    }
}
