import Foundation
import TallyCore

// The bodies the hydration routes read (openapi.yaml, components/schemas).

public struct NewIntake: Codable, Sendable {
    /// A client's id for the drink: sending the same one again returns the same drink (H1).
    public var id: UUID?
    /// The volume in ml; or `amount` instead.
    public var volumeMl: Double?
    /// The amount as a person typed it ("250", "250ml", "8oz"): a bare number is in the user's unit.
    public var amount: String?
    public var kind: String?
    public var at: Date?
    public var note: String?

    public init(id: UUID? = nil, volume: VolumeAmount, kind: String? = nil, at: Date? = nil, note: String? = nil) {
        self.id = id
        (volumeMl, amount) = volume.fields
        self.kind = kind
        self.at = at
        self.note = note
    }

    /// The volume the body gives, or a 400 that says how to give one.
    public func volume() throws -> VolumeAmount { try VolumeAmount(volumeMl: volumeMl, amount: amount) }

    private enum CodingKeys: String, CodingKey { case id, volumeMl, amount, kind, at, note }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(UUID.self, forKey: .id)
        (volumeMl, amount) = try VolumeAmount.fields(in: container, volumeMl: .volumeMl, amount: .amount)
        kind = try container.decodeIfPresent(String.self, forKey: .kind)
        at = try container.decodeIfPresent(Date.self, forKey: .at)
        note = try container.decodeIfPresent(String.self, forKey: .note)
    }
}

public struct NewRemoval: Codable, Sendable {
    public var id: UUID?
    public var volumeMl: Double?
    public var amount: String?
    public var at: Date?

    public init(id: UUID? = nil, volume: VolumeAmount, at: Date? = nil) {
        self.id = id
        (volumeMl, amount) = volume.fields
        self.at = at
    }

    public func volume() throws -> VolumeAmount { try VolumeAmount(volumeMl: volumeMl, amount: amount) }

    private enum CodingKeys: String, CodingKey { case id, volumeMl, amount, at }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(UUID.self, forKey: .id)
        (volumeMl, amount) = try VolumeAmount.fields(in: container, volumeMl: .volumeMl, amount: .amount)
        at = try container.decodeIfPresent(Date.self, forKey: .at)
    }
}

extension VolumeAmount {
    /// `volumeMl` and `amount` as a body gives them: either may be left out, but neither may be
    /// null, since a null volume says nothing about which one was meant.
    static func fields<Key>(in container: KeyedDecodingContainer<Key>, volumeMl: Key, amount: Key) throws -> (Double?, String?) {
        (container.contains(volumeMl) ? try container.decode(Double.self, forKey: volumeMl) : nil,
         container.contains(amount) ? try container.decode(String.self, forKey: amount) : nil)
    }

    /// From a body's `volumeMl` or `amount`: exactly one of them.
    init(volumeMl: Double?, amount: String?) throws {
        switch (volumeMl, amount) {
        case (let ml?, nil): self = .milliliters(ml)
        case (nil, let typed?): self = .typed(typed)
        default: throw TallyError.invalid("Give the volume as volumeMl (a number of ml) or as amount (such as \"250ml\" or \"8oz\"), one of the two.")
        }
    }

    var fields: (Double?, String?) {
        switch self {
        case .milliliters(let ml): (ml, nil)
        case .typed(let text): (nil, text)
        }
    }
}

public struct IntakeChange: Codable, Sendable {
    public var volumeMl: Double?
    public var kind: String?
    public var at: Date?
    /// Left out: unchanged; null or "": cleared.
    public var note: Patch<String>

    public init(volumeMl: Double? = nil, kind: String? = nil, at: Date? = nil, note: Patch<String> = .unchanged) {
        self.volumeMl = volumeMl
        self.kind = kind
        self.at = at
        self.note = note
    }
}

/// A day's entries, a page at a time.
public struct EntryPage: Codable, Sendable {
    public var items: [DayEntry]
    /// Pass as `cursor` for the next page; null on the last one.
    @ExplicitNull public var nextCursor: String?

    public init(items: [DayEntry], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

public struct GoalChange: Codable, Sendable {
    public var mode: Goal.Mode
    public var goalMl: Double?

    public init(_ choice: GoalChoice) {
        switch choice {
        case .automatic: (mode, goalMl) = (.automatic, nil)
        case .custom(let ml): (mode, goalMl) = (.custom, ml)
        case .none: (mode, goalMl) = (.none, nil)
        }
    }

    public func choice() throws -> GoalChoice {
        switch mode {
        case .automatic: return .automatic
        case .none: return .none
        case .custom:
            guard let goalMl else { throw TallyError.invalid("A custom goal needs goalMl, the daily amount in ml.") }
            return .custom(ml: goalMl)
        }
    }
}

public struct SettingsChange: Codable, Sendable {
    public var unit: VolumeUnit?
    public var timeZone: String?

    public init(unit: VolumeUnit? = nil, timeZone: String? = nil) {
        self.unit = unit
        self.timeZone = timeZone
    }
}

/// The settings: the presets in force, and the user's own ones when they chose some.
public struct SettingsView: Codable, Sendable {
    public var unit: VolumeUnit
    public var timeZone: String
    /// The quick-add amounts in force: the user's own, or the unit's defaults.
    public var presetsMl: [Double]
    /// The amounts the user chose; null while the unit's defaults apply.
    @ExplicitNull public var customPresetsMl: [Double]?

    public init(_ settings: HydrationSettings) {
        unit = settings.unit
        timeZone = settings.timeZone
        presetsMl = settings.presets.amountsMl
        customPresetsMl = settings.customPresets?.amountsMl
    }

    /// The settings as the service keeps them.
    public func settings() throws -> HydrationSettings {
        HydrationSettings(unit: unit, timeZone: timeZone, customPresets: try customPresetsMl.map { try Presets(amountsMl: $0, unit: unit) })
    }
}

public struct PresetsChange: Codable, Sendable {
    /// null goes back to the unit's defaults.
    public var amountsMl: [Double]?

    public init(amountsMl: [Double]?) {
        self.amountsMl = amountsMl
    }
}

public struct NewKind: Codable, Sendable {
    public var name: String
    public var factor: Double

    public init(name: String, factor: Double) {
        self.name = name
        self.factor = factor
    }
}

public struct KindChange: Codable, Sendable {
    public var name: String?
    public var factor: Double?
    public var retired: Bool?

    public init(name: String? = nil, factor: Double? = nil, retired: Bool? = nil) {
        self.name = name
        self.factor = factor
        self.retired = retired
    }
}

public struct FactorSetChange: Codable, Sendable {
    public var set: DrinkFactorSet

    public init(set: DrinkFactorSet) {
        self.set = set
    }
}

public struct BottleChange: Codable, Sendable {
    public var levelMl: Double?
    public var capacityMl: Double?
    public var sipMl: Double?

    public init(levelMl: Double? = nil, capacityMl: Double? = nil, sipMl: Double? = nil) {
        self.levelMl = levelMl
        self.capacityMl = capacityMl
        self.sipMl = sipMl
    }
}

public struct SipRequest: Codable, Sendable, OptionalFields {
    /// A client's id for the sip: sending it again does not sip twice.
    public var id: UUID?

    public init(id: UUID? = nil) {
        self.id = id
    }
}
