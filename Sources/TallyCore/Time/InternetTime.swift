import Foundation

/// An instant written as RFC 3339 / ISO 8601 with its offset: "2025-03-30T08:15:00+02:00",
/// "2025-03-30T06:15:00.250Z". Read strictly: Foundation's parsers roll "12:99" over to 13:39
/// and February 30 into March, so a typo would be stored as another time.
public enum InternetTime {
    public static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count, let value = DigitReader.number(bytes[index..<(index + digits)]) else { return nil }
            index += digits
            return value
        }
        func skip(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip("Tt"),
              let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var nanoseconds = 0
        if skip(".") {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = bytes[start..<index]
            guard (1...9).contains(digits.count) else { return nil }
            nanoseconds = DigitReader.number(digits) ?? 0
            for _ in digits.count..<9 { nanoseconds *= 10 }
        }
        var offset = 0
        if !skip("Zz") {
            guard index < bytes.count else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard skip("+-"), let hours = number(2), skip(":"), let minutes = number(2), hours <= 23, minutes <= 59 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        // A day the month does not have (April 31) is refused.
        guard index == bytes.count, let date = LocalDate(year: year, month: month, day: day),
              let zone = TimeZone(secondsFromGMT: offset) else { return nil }
        let whole: Date
        if LocalDate.arithmeticDays.contains(date.unixDay) {
            let seconds = date.unixDay * 86_400 + hour * 3600 + minute * 60 + second - offset
            whole = Date(timeIntervalSince1970: Double(seconds))
        } else {
            // Counted as `text` writes such days: Foundation's calendar is Julian before 1582-10-15.
            guard let start = Calendar.gregorian(zone).date(from: DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second))
            else { return nil }
            whole = start
        }
        return whole.addingTimeInterval(Double(nanoseconds) / 1e9)
    }

    /// The instant as `instant` reads it, with the offset `zone` has then: "2025-03-30T08:15:00+02:00",
    /// with as many digits of the second's fraction as it has (up to microseconds).
    /// An offset with seconds (the local mean times of old dates) is not one `instant` reads: such
    /// an instant is written in UTC.
    public static func text(_ date: Date, in zone: TimeZone) -> String {
        // The fraction is taken before it is scaled: seconds since 1970 times a million lose
        // their last digit after 2041.
        var seconds = date.timeIntervalSince1970.rounded(.down)
        var micros = ((date.timeIntervalSince1970 - seconds) * 1_000_000).rounded()
        if micros >= 1_000_000 { (seconds, micros) = (seconds + 1, 0) }
        let whole = Date(timeIntervalSince1970: seconds)
        let zone = zone.secondsFromGMT(for: whole) % 60 == 0 ? zone : TimeZone(identifier: "UTC")!
        let offset = zone.secondsFromGMT(for: whole)
        let parts = Calendar.gregorian(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        var text = "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
        var fraction = Int(micros)
        if fraction > 0 {
            var digits = 6
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let written = String(fraction)
            text += "." + String(repeating: "0", count: digits - written.count) + written
        }
        if offset == 0 { return text + "Z" }
        let sign = offset < 0 ? "-" : "+"
        return text + sign + two(abs(offset) / 3600) + ":" + two(abs(offset) % 3600 / 60)
    }

    /// The instant in UTC to the second, its fraction dropped: "2025-03-30T06:15:00Z", as
    /// Foundation's `.iso8601` JSON strategy writes it, without an ICU formatter per instant (it
    /// was a twentieth of an API request that lists a day's drinks).
    public static func utcSeconds(_ date: Date) -> String {
        // To the millisecond first, as ICU's formatter takes it: 00:00:00.9999 is written 00:00:01.
        var seconds = time_t(((date.timeIntervalSince1970 * 1000).rounded() / 1000).rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        let (month, day, hour, minute, second) = (Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return DigitWriter.string(length: DigitWriter.dateLength(year: year) + 10) { text in
            text.date(year: year, month: month, day: day)
            text.character("T")
            text.digits(hour, 2)
            text.character(":")
            text.digits(minute, 2)
            text.character(":")
            text.digits(second, 2)
            text.character("Z")
        }
    }
}
