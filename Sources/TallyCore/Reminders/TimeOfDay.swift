import Foundation

/// A wall-clock time ("07:00"), to the minute.
public struct TimeOfDay: Hashable, Comparable, Sendable, LosslessStringConvertible {
    /// Minutes since midnight, 0 to 1439.
    public let minutes: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        minutes = hour * 60 + minute
    }

    /// The time of day `instant` has in `zone` (to the minute): the inverse of `instant(on:in:)`.
    /// Counted as Foundation's Gregorian calendar counts it (the offset added, whole seconds
    /// since 2001 taken into a day) without making a calendar, whose first use cost every
    /// command that writes a time a millisecond.
    public init(of instant: Date, in zone: TimeZone) {
        let local = (instant.timeIntervalSinceReferenceDate + Double(zone.secondsFromGMT(for: instant))).rounded(.down)
        guard local >= Double(Int.min), local < Double(Int.max) else {
            let parts = Calendar.gregorian(zone).dateComponents([.hour, .minute], from: instant)
            self.init(minutesAfterMidnight: (parts.hour ?? 0) * 60 + (parts.minute ?? 0))
            return
        }
        let secondsInDay = (Int(local) % 86_400 + 86_400) % 86_400
        self.init(minutesAfterMidnight: secondsInDay / 60)
    }

    /// The time `minutes` after midnight, wrapped into one day.
    public init(minutesAfterMidnight minutes: Int) {
        self.minutes = ((minutes % 1440) + 1440) % 1440
    }

    /// Reads "7:00", "07:00" or "23:30".
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// HH:MM, without `String(format:)`, whose variadic arguments cost the command line a search
    /// of the binary's conformances at its start.
    public var description: String {
        DigitWriter.string(length: 5) { text in
            text.digits(hour, 2)
            text.character(":")
            text.digits(minute, 2)
        }
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }

    /// The instant this time has on `day` in `zone`. A time the clocks skip (02:30 on a spring
    /// day) is the instant just after the gap; a time that comes twice (an autumn hour) is the
    /// first.
    public func instant(on day: LocalDate, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)
        return calendar.date(from: components)
            ?? calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day))!.addingTimeInterval(Double(minutes) * 60)
    }
}

extension TimeOfDay: TextCodable {
    public static let example = "07:00"
}
