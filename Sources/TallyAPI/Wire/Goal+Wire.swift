import Foundation
import TallyCore

// Goals and the profile they are worked out from (H7, H8).

extension Goal: Codable {
    private enum Keys: String, CodingKey { case mode, targetMl }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(mode: try c.decode(Mode.self, forKey: .mode), targetMl: try c.decodeIfPresent(Double.self, forKey: .targetMl))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(mode, forKey: .mode)
        try c.encodeIfPresent(targetMl, forKey: .targetMl)
    }
}

extension GoalPeriod: Codable {
    private enum Keys: String, CodingKey { case start, end, goal }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(start: try c.decode(LocalDate.self, forKey: .start), end: try c.decodeIfPresent(LocalDate.self, forKey: .end),
                  goal: try c.decode(Goal.self, forKey: .goal))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(start, forKey: .start)
        try c.encodeIfPresent(end, forKey: .end)
        try c.encode(goal, forKey: .goal)
    }
}

extension GoalBreakdown: Codable {
    private enum Keys: String, CodingKey { case baseMl, mlPerKg, bonusMl, goalMl, clamped }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(baseMl: try c.decode(Double.self, forKey: .baseMl), mlPerKg: try c.decode(Double.self, forKey: .mlPerKg),
                  bonusMl: try c.decode(Double.self, forKey: .bonusMl), goalMl: try c.decode(Double.self, forKey: .goalMl),
                  clamped: try c.decode(Bool.self, forKey: .clamped))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(baseMl, forKey: .baseMl)
        try c.encode(mlPerKg, forKey: .mlPerKg)
        try c.encode(bonusMl, forKey: .bonusMl)
        try c.encode(goalMl, forKey: .goalMl)
        try c.encode(clamped, forKey: .clamped)
    }
}

/// A profile is checked as it is read: an age or weight out of range is refused in words.
extension Profile: Codable {
    private enum Keys: String, CodingKey { case age, weightKg, activity }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        try self.init(age: c.decode(Int.self, forKey: .age), weightKg: c.decode(Double.self, forKey: .weightKg),
                      activity: c.decode(ActivityLevel.self, forKey: .activity))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(age, forKey: .age)
        try c.encode(weightKg, forKey: .weightKg)
        try c.encode(activity, forKey: .activity)
    }
}
