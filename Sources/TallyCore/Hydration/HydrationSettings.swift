import Foundation

/// A person's hydration settings.
public struct HydrationSettings: Equatable, Sendable {
    public var unit: VolumeUnit
    /// An IANA zone name: the zone the person's days are counted in (H2).
    public var timeZone: String
    /// nil until the person sets their own: then the defaults of their unit apply (H4).
    public var customPresets: Presets?

    public init(unit: VolumeUnit = .ml, timeZone: String, customPresets: Presets? = nil) {
        self.unit = unit
        self.timeZone = timeZone
        self.customPresets = customPresets
    }

    public var presets: Presets { customPresets ?? .defaults(for: unit) }

    /// The zone, or UTC if the stored name is no longer known to this machine.
    public var zone: TimeZone { TimeZone(identifier: timeZone) ?? TimeZone(identifier: "UTC")! }
}
