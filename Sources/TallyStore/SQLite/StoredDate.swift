import Foundation
import GRDB
import TallyCore

/// A date as GRDB stores it, "yyyy-MM-dd HH:mm:ss.SSS" in UTC: the text of its
/// `Date.databaseValue`, written digit by digit. GRDB makes that text with an ICU date formatter,
/// which cost every token check and every drink written a few microseconds (bench/server.sh).
/// Outside the years 1583 to 9999, where ICU's calendar counts Julian days or a year has more
/// digits, GRDB's own text is used.
enum StoredDate {
    static func value(_ date: Date) -> DatabaseValue {
        text(date)?.databaseValue ?? date.databaseValue
    }

    static func text(_ date: Date) -> String? {
        // The instant as Foundation hands it to ICU (milliseconds since 1970, plus a half), and
        // as ICU takes it: the whole milliseconds below.
        let milliseconds = ((date.timeIntervalSinceReferenceDate + 978_307_200) * 1000 + 0.5).rounded(.down)
        guard (first...last).contains(milliseconds) else { return nil }
        let day = Int((milliseconds / 86_400_000).rounded(.down))
        let inDay = Int(milliseconds - Double(day) * 86_400_000)
        let date = LocalDate(unixDay: day)
        return DigitWriter.string(length: 23) { text in
            text.date(year: date.year, month: date.month, day: date.day)
            text.character(" ")
            text.digits(inDay / 3_600_000, 2)
            text.character(":")
            text.digits(inDay / 60_000 % 60, 2)
            text.character(":")
            text.digits(inDay / 1000 % 60, 2)
            text.character(".")
            text.digits(inDay % 1000, 3)
        }
    }

    /// The date of a value stored as `text(_:)` writes it, read digit by digit to the date GRDB
    /// reads; nil for any other value, which the caller leaves to GRDB (`?? row[column]`). GRDB
    /// builds its dates through a Calendar, whose first use cost every command a millisecond.
    static func date(_ value: DatabaseValue) -> Date? {
        guard case .string(let text) = value.storage else { return nil }
        return date(text: text)
    }

    static func date(text: String) -> Date? {
        text.utf8.withContiguousStorageIfAvailable { bytes -> Date? in
            guard bytes.count == 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
                  bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[19] == UInt8(ascii: ".") else { return nil }
            func number(_ start: Int, _ length: Int) -> Int? { DigitReader.number(bytes[start..<start + length]) }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  let millisecond = number(20, 3), hour < 24, minute < 60, second < 60,
                  let date = LocalDate(year: year, month: month, day: day),
                  LocalDate.arithmeticDays.contains(date.unixDay) else { return nil }
            // Summed as Foundation's Gregorian calendar sums them for GRDB: the day's start, then
            // the time of day with its fraction, so that the last bit is the same.
            let timeOfDay = Double(hour * 3600 + minute * 60 + second) + Double(millisecond) / 1000
            return Date(timeIntervalSinceReferenceDate: Double(date.unixDay * 86_400 - 978_307_200) + timeOfDay)
        } ?? nil
    }

    private static let first = Double(LocalDate.arithmeticDays.lowerBound) * 86_400_000
    private static let last = Double(LocalDate.arithmeticDays.upperBound + 1) * 86_400_000 - 1
}
