import Foundation
import PropertyBased
import Testing
@testable import TallyCore

/// Instants written with their offset are read exactly, or refused: never rolled over into
/// another time (H1: a drink's instant).
@Suite("Internet time")
struct InternetTimeTests {
    @Test("Offsets, Z and fractions are read as the instant they name")
    func valid() {
        let expected = Date(timeIntervalSince1970: 1_743_322_500) // 2025-03-30T08:15:00Z
        for text in ["2025-03-30T08:15:00Z", "2025-03-30T10:15:00+02:00", "2025-03-30T03:15:00-05:00", "2025-03-30t08:15:00z"] {
            #expect(InternetTime.instant(text) == expected, "\(text)")
        }
        #expect(InternetTime.instant("2025-03-30T08:15:00.250Z") == expected.addingTimeInterval(0.25))
        #expect(InternetTime.instant("2024-02-29T23:59:59Z") != nil, "a leap day")
    }

    @Test("Out-of-range fields, impossible days and anything extra are refused, not rolled over")
    func refused() {
        for text in ["2024-01-01T12:99:00Z", "2024-01-01T24:00:00Z", "2024-01-01T12:00:60Z", "2025-02-29T12:00:00Z",
                     "2025-04-31T12:00:00Z", "2025-13-01T12:00:00Z", "2025-00-10T12:00:00Z", "2025-01-01T12:00:00",
                     "2025-01-01T12:00:00+24:00", "2025-01-01T12:00:00+02", "2025-01-01 12:00:00Z", "2025-01-01T12:00:00Z ",
                     "2025-01-01T12:00:00.Z", "2025-01-01T12:00:00.1234567890Z", "+2025-01-01T12:00:00Z", ""] {
            #expect(InternetTime.instant(text) == nil, "\(text)")
        }
    }

    @Test("Property: any day and time with any offset is the instant Foundation's calendar gives")
    func matchesTheCalendar() async {
        await propertyCheck(count: 2000, input: Gen.int(in: 1583...9999), Gen.int(in: 1...12), Gen.int(in: 1...31),
                            Gen.int(in: 0...86_399), Gen.int(in: -18 * 4...18 * 4)) { year, month, day, time, quarters in
            let offset = quarters * 900
            let sign = offset < 0 ? "-" : "+"
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            let text = "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
                + "\(sign)\(two(abs(offset) / 3600)):\(two(abs(offset) / 60 % 60))"
            let calendar = Calendar.gregorian(TimeZone(secondsFromGMT: offset)!)
            let written = DateComponents(year: year, month: month, day: day, hour: time / 3600, minute: time / 60 % 60, second: time % 60)
            let date = calendar.date(from: written)!
            let exists = calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day)
            #expect(InternetTime.instant(text) == (exists ? date : nil), "\(text)")
        }
        #expect(InternetTime.instant("2025-01-01T12:00:00+18:15") == nil, "an offset no zone has")
        #expect(InternetTime.instant("1500-03-01T12:00:00Z") == Calendar.gregorian(Zones.utc).date(from: DateComponents(
            year: 1500, month: 3, day: 1, hour: 12)), "before 1583, the calendar's count")
    }

    @Test("Property: any instant written by Foundation's ISO 8601 formatter, in any offset, reads back the same")
    func roundTrip() async {
        await propertyCheck(count: 300, input: Gen.int(in: -2_000_000_000...4_000_000_000), Gen.int(in: -12 * 4...14 * 4)) { seconds, quarters in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(secondsFromGMT: quarters * 900)
            let text = formatter.string(from: date)
            #expect(InternetTime.instant(text) == date, "\(text)")
        }
    }
}
