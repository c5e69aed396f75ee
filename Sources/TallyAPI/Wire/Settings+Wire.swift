import Foundation
import TallyCore

// A person's settings, drink kinds, bottle and reminders (H4–H6, H10, H11).

extension HydrationSettings: Codable {
    private enum Keys: String, CodingKey { case unit, timeZone, customPresets }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(unit: try c.decode(VolumeUnit.self, forKey: .unit), timeZone: try c.decode(String.self, forKey: .timeZone),
                  customPresets: try c.decodeIfPresent(Presets.self, forKey: .customPresets))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(unit, forKey: .unit)
        try c.encode(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(customPresets, forKey: .customPresets)
    }
}

/// The amounts as written: whoever applies them checks them in their settings' unit.
extension Presets: Codable {
    private enum Keys: String, CodingKey { case amountsMl }

    public init(from decoder: any Decoder) throws {
        self.init(asWritten: try decoder.container(keyedBy: Keys.self).decode([Double].self, forKey: .amountsMl))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(amountsMl, forKey: .amountsMl)
    }
}

extension DrinkKind: Codable {
    private enum Keys: String, CodingKey { case id, name, factor, isBuiltIn, isRetired }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(id: try c.decode(UUID.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
                  factor: try c.decode(Double.self, forKey: .factor), isBuiltIn: try c.decode(Bool.self, forKey: .isBuiltIn),
                  isRetired: try c.decode(Bool.self, forKey: .isRetired))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(factor, forKey: .factor)
        try c.encode(isBuiltIn, forKey: .isBuiltIn)
        try c.encode(isRetired, forKey: .isRetired)
    }
}

extension Bottle: Codable {
    private enum Keys: String, CodingKey { case capacityMl, levelMl, sipMl }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(capacityMl: try c.decode(Double.self, forKey: .capacityMl), levelMl: try c.decode(Double.self, forKey: .levelMl),
                  sipMl: try c.decode(Double.self, forKey: .sipMl))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(capacityMl, forKey: .capacityMl)
        try c.encode(levelMl, forKey: .levelMl)
        try c.encode(sipMl, forKey: .sipMl)
    }
}

extension ReminderSettings: Codable {
    private enum Keys: String, CodingKey { case enabled, window, frequency, smartThresholdHours, useSleepRecords }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(enabled: try c.decode(Bool.self, forKey: .enabled), window: try c.decode(WakeWindow.self, forKey: .window),
                  frequency: try c.decode(Int.self, forKey: .frequency),
                  smartThresholdHours: try c.decodeIfPresent(Int.self, forKey: .smartThresholdHours),
                  // Settings saved before there were sleep records, and clients that leave it out.
                  useSleepRecords: try c.decodeIfPresent(Bool.self, forKey: .useSleepRecords) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(window, forKey: .window)
        try c.encode(frequency, forKey: .frequency)
        try c.encodeIfPresent(smartThresholdHours, forKey: .smartThresholdHours)
        try c.encode(useSleepRecords, forKey: .useSleepRecords)
    }
}

extension WakeWindow: Codable {
    private enum Keys: String, CodingKey { case wake, sleep }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(wake: try c.decode(TimeOfDay.self, forKey: .wake), sleep: try c.decode(TimeOfDay.self, forKey: .sleep))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(wake, forKey: .wake)
        try c.encode(sleep, forKey: .sleep)
    }
}
