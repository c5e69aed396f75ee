import Foundation

/// The reminders as an iCalendar feed (RFC 5545): an event with an alarm at each reminder time
/// of the coming days, for any calendar app to subscribe to.
public enum CalendarFeed {
    public static let days = 14

    /// The feed for the windows starting on the `days` days from `firstDay`, each with the window
    /// it starts with; its words written by `say` (in the person's language).
    public static func ics(_ windows: DayWindows, from firstDay: LocalDate, now: Date, name: String,
                           say: (Phrase) -> String = { $0.description }) -> String {
        let (settings, zone) = (windows.settings, windows.zone)
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Tally//Reminders//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
            "X-WR-CALNAME:" + escape(say(Phrase("Tally: drink water (\(name))"))), "X-WR-TIMEZONE:" + zone.identifier,
            "REFRESH-INTERVAL;VALUE=DURATION:PT12H", "X-PUBLISHED-TTL:PT12H",
        ]
        if settings.enabled {
            for offset in 0..<days {
                let day = firstDay.adding(days: offset)
                let schedule = ReminderSchedule(window: windows.window(startingOn: day), frequency: settings.frequency)
                for (index, instant) in schedule.instants(startingOn: day, in: zone).enumerated() where instant > now {
                    lines += event(uid: "\(day)-\(index + 1)-\(schedule.times[index])@tally", at: instant, stamp: now,
                                   summary: say(Phrase("Drink some water")), alarm: say(Phrase("Time for a glass of water.")))
                }
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    private static func event(uid: String, at instant: Date, stamp: Date, summary: String, alarm: String) -> [String] {
        [
            "BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + utc(stamp), "DTSTART:" + utc(instant), "DURATION:PT5M",
            "SUMMARY:" + escape(summary), "TRANSP:TRANSPARENT",
            "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(alarm), "TRIGGER:PT0S", "END:VALARM",
            "END:VEVENT",
        ]
    }

    /// 20260110T080000Z: a UTC date-time, which every calendar reads the same way.
    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// Text values escape backslashes, semicolons, commas and line breaks (RFC 5545 3.3.11).
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1),
    /// never inside a character.
    static func fold(_ line: String) -> String {
        var result = ""
        var count = 0
        for character in line {
            let size = String(character).utf8.count
            if count + size > 75 {
                result += "\r\n "
                count = 1
            }
            result.append(character)
            count += size
        }
        return result
    }
}
