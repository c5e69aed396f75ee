import Foundation

/// Validates IANA zone names, the only kind of time zone a user can choose.
public enum UserTimeZone {
    /// The zone for `identifier`, or an error that says how to name one.
    public static func named(_ identifier: String) throws -> TimeZone {
        guard TimeZone.knownTimeZoneIdentifiers.contains(identifier) || identifier == "UTC",
              let zone = TimeZone(identifier: identifier) else {
            throw TallyError.invalid(
                "\"\(identifier)\" is not a time zone Tally knows; use an IANA name such as Europe/Berlin, America/New_York or UTC.")
        }
        return zone
    }

    /// `identifier` as it was given, once it is known to name a zone. Keep this, not the zone's
    /// own identifier: Foundation on Linux would answer "GMT" for "UTC".
    public static func validated(_ identifier: String) throws -> String {
        _ = try named(identifier)
        return identifier
    }

    /// The machine's own zone when it has an IANA name, else UTC: the default for a new user.
    public static var systemDefault: String {
        let name = TimeZone.current.identifier
        return TimeZone.knownTimeZoneIdentifiers.contains(name) ? name : "UTC"
    }
}
