import Foundation
import TallyCore

/// A date as Apple Health writes it, `2024-03-31 07:45:10 +0200`: a wall-clock time and the UTC
/// offset it was recorded in. Read by hand because a DateFormatter is slow for millions of
/// records and is no safer for a format this fixed.
struct HealthDate: Equatable {
    /// The calendar day of the wall-clock time, as the person saw it when it was recorded.
    let day: LocalDate
    let instant: Date

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 25, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == 0x20,
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == 0x20,
              let year = DigitReader.number(bytes[0..<4]), let month = DigitReader.number(bytes[5..<7]),
              let dayOfMonth = DigitReader.number(bytes[8..<10]), let hour = DigitReader.number(bytes[11..<13]),
              let minute = DigitReader.number(bytes[14..<16]), let second = DigitReader.number(bytes[17..<19]),
              bytes[20] == UInt8(ascii: "+") || bytes[20] == UInt8(ascii: "-"),
              let offsetHours = DigitReader.number(bytes[21..<23]), let offsetMinutes = DigitReader.number(bytes[23..<25]),
              hour < 24, minute < 60, second < 61, offsetHours <= 14, offsetMinutes < 60,
              let day = LocalDate(year: year, month: month, day: dayOfMonth) else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == UInt8(ascii: "-") ? -1 : 1)
        let wallClock = day.start(in: Self.utc).addingTimeInterval(Double(hour * 3600 + minute * 60 + second))
        self.day = day
        self.instant = wallClock.addingTimeInterval(-Double(offset))
    }

    private static let utc = TimeZone(identifier: "UTC")!

}
