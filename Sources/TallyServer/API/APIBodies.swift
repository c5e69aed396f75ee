import Foundation
import TallyCore
import TallyStore

// The JSON bodies the API reads and writes that are not TallyCore's own values.

struct NewIntake: Decodable {
    /// A client's id for the drink: sending the same one again returns the same drink (H1).
    var id: UUID?
    var volumeMl: Double
    var kind: String?
    var at: Date?
    var note: String?
}

struct NewRemoval: Decodable {
    var id: UUID?
    var volumeMl: Double
    var at: Date?
}

struct IntakeChange: Decodable {
    var volumeMl: Double?
    var kind: String?
    var at: Date?
    /// Absent: unchanged; null or "": cleared.
    var note: String??

    enum CodingKeys: String, CodingKey { case volumeMl, kind, at, note }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        volumeMl = try c.decodeIfPresent(Double.self, forKey: .volumeMl)
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        at = try c.decodeIfPresent(Date.self, forKey: .at)
        note = c.contains(.note) ? .some(try c.decodeIfPresent(String.self, forKey: .note)) : nil
    }
}

struct EntryPage: Encodable {
    var items: [DayEntry]
    /// Pass as `cursor` for the next page; null on the last one.
    @ExplicitNull var nextCursor: String?
}

struct GoalChange: Decodable {
    var mode: Goal.Mode
    var goalMl: Double?

    func choice() throws -> GoalChoice {
        switch mode {
        case .automatic: return .automatic
        case .none: return .none
        case .custom:
            guard let goalMl else { throw TallyError.invalid("A custom goal needs goalMl, the daily amount in ml.") }
            return .custom(ml: goalMl)
        }
    }
}

struct SettingsChange: Decodable {
    var unit: VolumeUnit?
    var timeZone: String?
}

struct SettingsView: Encodable {
    var unit: VolumeUnit
    var timeZone: String
    var presetsMl: [Double]

    init(_ settings: HydrationSettings) {
        unit = settings.unit
        timeZone = settings.timeZone
        presetsMl = settings.presets.amountsMl
    }
}

struct PresetsChange: Decodable {
    /// null goes back to the unit's defaults.
    var amountsMl: [Double]?
}

struct NewKind: Decodable {
    var name: String
    var factor: Double
}

struct KindChange: Decodable {
    var name: String?
    var factor: Double?
    var retired: Bool?
}

struct FactorSetChange: Decodable {
    var set: DrinkFactorSet
}

struct NewToken: Decodable {
    var name: String
    /// Nil: the token never expires.
    var expiresInDays: Int?
}

struct PasswordChange: Decodable {
    var current: String
    var new: String
}

struct CreatedToken: Encodable {
    var token: APITokenInfo
    /// Shown once: only its hash is kept.
    var secret: String
}

struct Me: Encodable {
    var id: UUID
    var name: String
    var isAdmin: Bool
}
