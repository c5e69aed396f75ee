import Foundation

/// The units a person can read and type volumes in. Everything is stored in ml (H5).
public enum VolumeUnit: String, NamedChoice, Sendable {
    case ml
    case oz

    /// Millilitres in one US fluid ounce, the FDA figure.
    public static let mlPerFluidOunce = 29.5735

    public func toMilliliters(_ value: Double) -> Double {
        switch self {
        case .ml: value
        case .oz: value * Self.mlPerFluidOunce
        }
    }

    public func fromMilliliters(_ ml: Double) -> Double {
        switch self {
        case .ml: ml
        case .oz: ml / Self.mlPerFluidOunce
        }
    }

    /// A volume for people: whole units, with the unit ("237 ml", "8 oz"). Only display rounds.
    public func format(_ ml: Double) -> String {
        let value = fromMilliliters(ml).rounded()
        // Int(_:) traps on NaN, infinity and anything beyond Int's range, and error messages quote
        // what was typed ("1e20 ml is too much"): print those without converting to Int.
        let number = abs(value) < 1e15 ? String(Int(value)) : String(format: "%.0f", value)
        return "\(number) \(rawValue)"
    }

    /// Parses a unit the way people type it: "ml", "mL", "oz", "fl oz", "floz".
    public init?(typed text: String) {
        switch text.lowercased().replacingOccurrences(of: " ", with: "") {
        case "ml", "millilitre", "milliliter", "millilitres", "milliliters": self = .ml
        case "oz", "floz", "fl.oz", "ounce", "ounces": self = .oz
        default: return nil
        }
    }
}

/// An amount of liquid someone typed, before it is checked against a rule's range.
public enum VolumeInput {
    /// Parses "250", "250ml", "8 oz", "12.5floz"; a bare number is in `defaultUnit`.
    /// Returns millilitres; refuses text that is not a finite number (the range is the caller's
    /// rule: see `EntryVolume`).
    public static func milliliters(from text: String, defaultUnit: VolumeUnit) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let numberEnd = trimmed.firstIndex { !("0"..."9").contains($0) && $0 != "." && $0 != "-" && $0 != "+" } ?? trimmed.endIndex
        let numberText = String(trimmed[..<numberEnd])
        let unitText = trimmed[numberEnd...].trimmingCharacters(in: .whitespaces)
        let unit: VolumeUnit
        if unitText.isEmpty {
            unit = defaultUnit
        } else if let typed = VolumeUnit(typed: unitText) {
            unit = typed
        } else {
            throw TallyError.invalid("\(UserText.quoted(text)) is not an amount: write a number, optionally followed by ml or oz (250, 250ml, 8oz).")
        }
        guard let value = Double(numberText), value.isFinite else {
            throw TallyError.invalid("\(UserText.quoted(text)) is not an amount: write a number, optionally followed by ml or oz (250, 250ml, 8oz).")
        }
        return unit.toMilliliters(value)
    }
}

/// The range a single drink, removal or preset may have (H1: > 0, at most 5000 ml).
public enum EntryVolume {
    public static let maximumMl = 5000.0

    /// Checks `ml`, naming the limits in the user's unit when it is out of range.
    public static func validate(_ ml: Double, unit: VolumeUnit, what: Phrase = Phrase("An amount")) throws {
        guard ml.isFinite, ml > 0 else {
            throw TallyError.invalid("\(what) must be more than 0 \(unit.rawValue).")
        }
        guard ml <= maximumMl else {
            throw TallyError.invalid("\(what) can be at most \(unit.format(maximumMl)) at a time.")
        }
    }
}

/// A volume as a request gives it: millilitres, or an amount as a person typed it, which needs
/// the person's unit to become millilitres.
public enum VolumeAmount: Sendable, Equatable {
    case milliliters(Double)
    /// "250", "250ml", "8oz": a bare number is in the person's unit.
    case typed(String)

    public func milliliters(defaultUnit: VolumeUnit) throws -> Double {
        switch self {
        case .milliliters(let ml): ml
        case .typed(let text): try VolumeInput.milliliters(from: text, defaultUnit: defaultUnit)
        }
    }
}
