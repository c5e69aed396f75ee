import Foundation
import PropertyBased
import Testing
@testable import TallyCore

/// `InternetTime.text`: an instant written with the offset its zone has then (the CSV export's
/// time column, A2), read back by `InternetTime.instant` as the same instant.
@Suite("Internet time text")
struct InternetTimeTextTests {
    static func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

    @Test("The offset the zone has at that instant: summer and winter, both sides of Paris's DST changes")
    func offsets() {
        let paris = Self.zone("Europe/Paris")
        #expect(InternetTime.text(utc("2025-03-30T06:15:00Z"), in: paris) == "2025-03-30T08:15:00+02:00")
        #expect(InternetTime.text(utc("2025-01-15T08:00:00Z"), in: paris) == "2025-01-15T09:00:00+01:00")
        // Spring: 01:59:59 in winter time, then 03:00 in summer time.
        #expect(InternetTime.text(utc("2025-03-30T00:59:59Z"), in: paris) == "2025-03-30T01:59:59+01:00")
        #expect(InternetTime.text(utc("2025-03-30T01:00:00Z"), in: paris) == "2025-03-30T03:00:00+02:00")
        // Autumn: 02:30 twice, told apart by the offset.
        #expect(InternetTime.text(utc("2025-10-26T00:30:00Z"), in: paris) == "2025-10-26T02:30:00+02:00")
        #expect(InternetTime.text(utc("2025-10-26T01:30:00Z"), in: paris) == "2025-10-26T02:30:00+01:00")
    }

    @Test("Z for UTC; negative, half-hour and 45-minute offsets")
    func otherZones() {
        let instant = utc("2025-07-01T12:00:00Z")
        #expect(InternetTime.text(instant, in: Zones.utc) == "2025-07-01T12:00:00Z")
        #expect(InternetTime.text(instant, in: Self.zone("Europe/London")) == "2025-07-01T13:00:00+01:00")
        #expect(InternetTime.text(utc("2025-01-01T12:00:00Z"), in: Self.zone("Europe/London")) == "2025-01-01T12:00:00Z")
        #expect(InternetTime.text(instant, in: Zones.newYork) == "2025-07-01T08:00:00-04:00")
        #expect(InternetTime.text(utc("2025-01-01T03:00:00Z"), in: Zones.newYork) == "2024-12-31T22:00:00-05:00")
        #expect(InternetTime.text(instant, in: Self.zone("Asia/Kolkata")) == "2025-07-01T17:30:00+05:30")
        #expect(InternetTime.text(instant, in: Self.zone("Asia/Kathmandu")) == "2025-07-01T17:45:00+05:45")
        #expect(InternetTime.text(instant, in: Self.zone("America/St_Johns")) == "2025-07-01T09:30:00-02:30")
        #expect(InternetTime.text(instant, in: Self.zone("Pacific/Kiritimati")) == "2025-07-02T02:00:00+14:00")
        #expect(InternetTime.text(instant, in: Self.zone("Etc/GMT+12")) == "2025-07-01T00:00:00-12:00")
    }

    @Test("The second's fraction with as many digits as it has, up to microseconds, rounded")
    func fractions() {
        let base = utc("2025-03-30T06:15:00Z")
        #expect(InternetTime.text(base + 0.5, in: Zones.utc) == "2025-03-30T06:15:00.5Z")
        #expect(InternetTime.text(base + 0.25, in: Zones.utc) == "2025-03-30T06:15:00.25Z")
        #expect(InternetTime.text(base + 0.125, in: Zones.utc) == "2025-03-30T06:15:00.125Z")
        #expect(InternetTime.text(base + 0.007, in: Zones.utc) == "2025-03-30T06:15:00.007Z")
        #expect(InternetTime.text(base + 0.000_001, in: Zones.utc) == "2025-03-30T06:15:00.000001Z")
        // Rounded to the microsecond (near 1970, where a Date has digits to spare).
        let early = Date(timeIntervalSince1970: 1000)
        #expect(InternetTime.text(early + 0.123_456_4, in: Zones.utc) == "1970-01-01T00:16:40.123456Z")
        #expect(InternetTime.text(early + 0.123_456_6, in: Zones.utc) == "1970-01-01T00:16:40.123457Z")
        #expect(InternetTime.text(early + 0.000_000_4, in: Zones.utc) == "1970-01-01T00:16:40Z")
        #expect(InternetTime.text(base + 59.999_999_7, in: Zones.utc) == "2025-03-30T06:16:00Z", "rounds up into the next minute")
        #expect(InternetTime.text(base + 0.5, in: Self.zone("Europe/Paris")) == "2025-03-30T08:15:00.5+02:00")
        // Before 1970 the fraction still counts forward from the second.
        #expect(InternetTime.text(Date(timeIntervalSince1970: -0.25), in: Zones.utc) == "1969-12-31T23:59:59.75Z")
        #expect(InternetTime.text(Date(timeIntervalSince1970: -1), in: Zones.utc) == "1969-12-31T23:59:59Z")
    }

    static let zones = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns",
                        "Pacific/Chatham", "UTC", "Africa/Casablanca", "America/Santiago"].map(zone)

    @Test("Property: in UTC to the second, exactly as Foundation's ISO 8601 formatter writes it, from 1900 to 2200")
    func utcSecondsAsFoundation() async {
        let foundation = ISO8601DateFormatter()
        await propertyCheck(count: 1000, input: Gen.int(in: -2_208_988_800...7_258_118_400), Gen.int(in: 0...999_999)) { seconds, micros in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(micros) / 1_000_000)
            #expect(InternetTime.utcSeconds(date) == foundation.string(from: date), "\(date.timeIntervalSince1970)")
        }
        #expect(InternetTime.utcSeconds(Date(timeIntervalSince1970: 1_743_315_300.4)) == "2025-03-30T06:15:00Z")
        #expect(InternetTime.utcSeconds(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59Z")
        // Beyond four digits of year the year grows, as `%04d` writes it; the rest stays in place.
        #expect(InternetTime.utcSeconds(Date(timeIntervalSince1970: 400_000_000_000)) == "14645-06-30T15:06:40Z")
        #expect(InternetTime.utcSeconds(Date(timeIntervalSince1970: -62_198_755_200)) == "-001-01-01T00:00:00Z")
    }

    @Test("Numbers are zero-padded as %0*d pads them: the sign counts, and a wider number is written whole")
    func zeroPadding() {
        for (value, width) in [(0, 4), (7, 2), (42, 2), (123, 2), (-5, 4), (-5, 1), (12_345, 4), (2025, 4), (Int.max, 3), (Int.min, 30)] {
            #expect(zeroPadded(value, width) == String(format: "%0*ld", width, value), "\(value), \(width)")
        }
    }

    @Test("Property: an instant to the millisecond (what the store keeps) reads back exactly, and writes the same text again, in zones with DST")
    func roundTripMilliseconds() async {
        // Up to 2041-05-10 (2^51 µs): later ones are in `after2041`.
        await propertyCheck(count: 500, input: Gen.int(in: 0...2_251_000_000), Gen.int(in: 0...999), Gen.int(in: 0...(Self.zones.count - 1))) { seconds, millis, index in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(millis) / 1000)
            let text = InternetTime.text(date, in: Self.zones[index])
            // The same instant (Date keeps its seconds from 2001: the last bit may differ by how it was made).
            #expect(InternetTime.instant(text).map { abs($0.timeIntervalSince(date)) < 0.000_001 } == true, "\(text) for \(date.timeIntervalSince1970)")
            #expect(InternetTime.instant(text).map { InternetTime.text($0, in: Self.zones[index]) } == text)
            let fraction = millis == 0 ? "" : "." + String(String(1000 + millis).dropFirst()).replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
            #expect(text.contains(":\(String(format: "%02d", seconds % 60))\(fraction)"), "\(text): the milliseconds as written")
        }
    }

    @Test("Property: any instant since 1973 reads back within a microsecond (earlier, zones had offsets with seconds: see below)")
    func roundTripMicroseconds() async {
        await propertyCheck(count: 500, input: Gen.int(in: 100_000_000...4_000_000_000), Gen.int(in: 0...999_999), Gen.int(in: 0...(Self.zones.count - 1))) { seconds, micros, index in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(micros) / 1_000_000)
            let text = InternetTime.text(date, in: Self.zones[index])
            let back = InternetTime.instant(text)
            #expect(back.map { abs($0.timeIntervalSince(date)) < 0.000_001 } == true, "\(text) for \(date.timeIntervalSince1970)")
        }
    }

    @Test("After 2041-05-10 (2^51 microseconds) too, a time to the millisecond is written with its milliseconds only, and what is read back writes the same text")
    func after2041() {
        let paris = Self.zone("Europe/Paris")
        var wrong: [String] = []
        for start in [2_251_799_813.0, 2_300_000_000, 4_000_000_000] {
            for millis in 0..<1000 {
                let date = Date(timeIntervalSince1970: start + Double(millis) / 1000)
                let text = InternetTime.text(date, in: paris)
                guard let back = InternetTime.instant(text) else { wrong.append("\(text) does not read"); continue }
                let again = InternetTime.text(back, in: paris)
                let digits = text.split(separator: ".").dropFirst().first.map { $0.prefix { $0.isNumber }.count } ?? 0
                if again != text || digits > 3 { wrong.append("\(text) → \(again)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of 3000, such as \(wrong.prefix(3))")
    }

    @Test("Every DST change of Paris in 2020–2030: a second before and after each reads back")
    func everyParisChange() {
        let paris = Self.zone("Europe/Paris")
        var instant = utc("2020-01-01T00:00:00Z")
        var changes = 0
        while let next = paris.nextDaylightSavingTimeTransition(after: instant), next < utc("2031-01-01T00:00:00Z") {
            for date in [next - 1, next, next + 1, next - 0.5] {
                #expect(InternetTime.instant(InternetTime.text(date, in: paris)) == date, "\(InternetTime.text(date, in: paris))")
            }
            changes += 1
            instant = next
        }
        #expect(changes == 22)
    }

    @Test("An offset with seconds (local mean time, as Monrovia kept until 1972) still reads back as the same instant")
    func offsetWithSeconds() {
        let monrovia = Self.zone("Africa/Monrovia")
        let date = utc("1970-06-01T12:00:00Z")
        #expect(monrovia.secondsFromGMT(for: date) % 60 != 0, "this machine's zone data has Monrovia's -0:44:30")
        let text = InternetTime.text(date, in: monrovia)
        #expect(InternetTime.instant(text) == date, "\(text)")
    }
}
