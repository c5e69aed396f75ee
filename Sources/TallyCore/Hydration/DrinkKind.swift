import Foundation

/// A kind of drink and the share of its volume that counts as hydration (H6).
public struct DrinkKind: Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var factor: Double
    /// One of the seven kinds every user starts with; these keep their names.
    public var isBuiltIn: Bool
    /// Retired kinds keep their past entries but are no longer offered.
    public var isRetired: Bool

    public init(id: UUID = UUID(), name: String, factor: Double, isBuiltIn: Bool = false, isRetired: Bool = false) {
        self.id = id
        self.name = name
        self.factor = factor
        self.isBuiltIn = isBuiltIn
        self.isRetired = isRetired
    }

    public static let factorRange = 0.0...1.5
    public static let maximumNameLength = 40

    /// The kind new drinks get when none is named.
    public static let defaultName = "water"

    /// Checks a user's kind before it is stored.
    public static func validate(name: String, factor: Double) throws -> String {
        let trimmed = try UserText.name(name, Phrase("A drink kind's name"))
        guard !trimmed.isEmpty else { throw TallyError.invalid("A drink kind needs a name.") }
        guard UserText.fits(trimmed, maximumLength: maximumNameLength) else {
            throw TallyError.invalid("A drink kind's name can be at most \(maximumNameLength) characters long (and \(UserText.maximumBytes(forLength: maximumNameLength)) bytes of UTF-8).")
        }
        guard factor.isFinite, factorRange.contains(factor) else {
            throw TallyError.invalid("A hydration factor must be between 0 and 1.5; \(factor) is not.")
        }
        return trimmed
    }
}

/// A named set of factors for the built-in kinds.
///
/// The factors are tracking conventions, not medical advice: the standard set follows common
/// hydration apps; the Beverage Hydration Index (Maughan et al. 2016, full-fat milk for milk)
/// measured how well each drink is retained compared with still water, and rates milk and
/// juice above water.
public enum DrinkFactorSet: String, NamedChoice, Sendable {
    case standard
    case bhi

    public var factors: KeyValuePairs<String, Double> {
        switch self {
        case .standard:
            ["water": 1.0, "coffee": 0.85, "tea": 0.95, "juice": 0.9, "milk": 0.9, "soda": 0.8, "other": 0.9]
        case .bhi:
            ["water": 1.0, "coffee": 1.0, "tea": 1.0, "juice": 1.39, "milk": 1.5, "soda": 1.0, "other": 1.0]
        }
    }

    public static let disclaimer = Phrase(
        "Hydration factors are tracking conventions, not medical advice. The Beverage Hydration Index (Maughan et al. 2016) rates milk and juice above water, and Tally offers its values as an alternative set.")

    /// The kinds every new user starts with.
    public static func builtInKinds() -> [DrinkKind] {
        standard.factors.map { DrinkKind(name: $0.key, factor: $0.value, isBuiltIn: true) }
    }
}
