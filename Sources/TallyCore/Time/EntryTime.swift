import Foundation

/// Reads the time of a drink as people type it.
public enum EntryTime {
    /// "HH:MM" (that time today, in `zone`), "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM" (local, in
    /// `zone`), or an ISO 8601 instant with its offset ("2025-03-30T01:30:00Z").
    public static func instant(from text: String, now: Date, zone: TimeZone) throws -> Date {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let instant = InternetTime.instant(text) { return instant }
        let calendar = Calendar.gregorian(zone)
        let dateAndTime = text.replacingOccurrences(of: "T", with: " ").split(separator: " ")
        let day: LocalDate?
        let timeText: Substring
        switch dateAndTime.count {
        case 1: (day, timeText) = (LocalDate(containing: now, in: zone), dateAndTime[0])
        case 2: (day, timeText) = (LocalDate(String(dateAndTime[0])), dateAndTime[1])
        default: throw unreadable(text)
        }
        let clock = timeText.split(separator: ":")
        guard let day, clock.count == 2, clock[0].count <= 2, clock[1].count == 2,
              let hour = Int(clock[0]), let minute = Int(clock[1]),
              (0...23).contains(hour), (0...59).contains(minute),
              let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day,
                                                            hour: hour, minute: minute))
        else { throw unreadable(text) }
        return date
    }

    /// Refuses drinks logged ahead of the clock (a minute's slack for clocks that differ).
    public static func checkNotFuture(_ instant: Date, now: Date) throws {
        guard instant <= now.addingTimeInterval(60) else {
            throw TallyError.invalid("That time is in the future; log drinks when you have had them.")
        }
    }

    private static func unreadable(_ text: String) -> TallyError {
        TallyError.invalid("\(UserText.quoted(text)) is not a time: write HH:MM for today, or an ISO 8601 time such as 2025-03-30T08:15:00+02:00.")
    }
}
