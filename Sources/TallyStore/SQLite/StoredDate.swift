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

    private static let first = Double(LocalDate.arithmeticDays.lowerBound) * 86_400_000
    private static let last = Double(LocalDate.arithmeticDays.upperBound + 1) * 86_400_000 - 1
}
