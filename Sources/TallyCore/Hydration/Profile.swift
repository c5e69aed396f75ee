import Foundation

/// How active a person is, and the water it adds to their goal (H7).
public enum ActivityLevel: String, NamedChoice, Sendable {
    case sedentary
    case light
    case moderate
    case active
    case veryActive = "very-active"

    public var bonusMl: Double {
        switch self {
        case .sedentary: 0
        case .light: 250
        case .moderate: 500
        case .active: 750
        case .veryActive: 1000
        }
    }

    /// Accepts the names people type: "very active", "very_active", "veryActive".
    public init?(typed text: String) {
        let key = text.lowercased().replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: " ", with: "-")
        if let level = ActivityLevel(rawValue: key) {
            self = level
        } else if key == "veryactive" {
            self = .veryActive
        } else {
            return nil
        }
    }

    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What the goal calculator needs to know about a person (H7).
public struct Profile: Equatable, Sendable {
    public var age: Int
    public var weightKg: Double
    public var activity: ActivityLevel

    public static let ageRange = 10...120
    public static let weightRange = 30.0...300.0

    /// A profile, refused with the allowed range named when age or weight is out of it.
    public init(age: Int, weightKg: Double, activity: ActivityLevel) throws {
        guard Self.ageRange.contains(age) else {
            throw TallyError.invalid("Age must be between \(Self.ageRange.lowerBound) and \(Self.ageRange.upperBound) years; \(age) is not.")
        }
        guard weightKg.isFinite, Self.weightRange.contains(weightKg) else {
            throw TallyError.invalid("Weight must be between 30 and 300 kg; \(String(format: "%g", weightKg)) kg is not.")
        }
        self.age = age
        self.weightKg = weightKg
        self.activity = activity
    }
}
