import Foundation
import PropertyBased
import Testing
@testable import TallyCore

/// H2: a day is a calendar day in the user's zone; LocalDate is that day without a zone.
@Suite("LocalDate (H2)")
struct LocalDateTests {
    // MARK: Parsing and printing

    @Test("H2: parses and prints YYYY-MM-DD, leap day included")
    func parsesAndPrints() throws {
        let leap = try #require(LocalDate("2024-02-29"))
        #expect(leap.year == 2024 && leap.month == 2 && leap.day == 29)
        #expect(leap.description == "2024-02-29")
        #expect(LocalDate(year: 7, month: 3, day: 5)?.description == "0007-03-05")
        #expect(LocalDate("2000-02-29") != nil, "2000 is a leap year (divisible by 400)")
    }

    @Test("H2: refuses text that is not an existing YYYY-MM-DD day",
          arguments: ["2025-02-29", "2025-13-01", "25-1-1", "2025-1-01", "2025-01-1", "2025-00-10",
                      "2025-04-31", "1900-02-29", "0000-01-01", "", "2025-01-01T00:00", "2025/01/01",
                      "2025-01-01-", " 2025-01-01", "abcd-ef-gh", "2025-+1-01", "+999-01-01", "2025-01-+1"])
    func refusesBadText(_ text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("H2: refuses components of days that do not exist")
    func refusesBadComponents() {
        #expect(LocalDate(year: 2025, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2025, month: 2, day: 30) == nil)
        #expect(LocalDate(year: 2025, month: 0, day: 1) == nil)
        #expect(LocalDate(year: 2025, month: 1, day: 0) == nil)
        #expect(LocalDate(year: 10000, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
    }

    @Test("H2: LosslessStringConvertible round trip")
    func losslessRoundTrip() {
        for text in ["2024-02-29", "1999-12-31", "2025-03-30", "0001-01-01", "9999-12-31"] {
            #expect(LocalDate(text)?.description == text)
        }
    }

    @Test("H2: Codable encodes a day as its YYYY-MM-DD string and decodes it back")
    func codableRoundTrip() throws {
        struct Box: Codable, Equatable { var day: LocalDate }
        let box = Box(day: day("2024-02-29"))
        let data = try JSONEncoder().encode(box)
        #expect(String(decoding: data, as: UTF8.self) == #"{"day":"2024-02-29"}"#)
        #expect(try JSONDecoder().decode(Box.self, from: data) == box)
    }

    @Test("H2: decoding refuses a string that is not a day")
    func codableRefusesBadDay() {
        let json = Data(#"{"day":"2025-02-29"}"#.utf8)
        struct Box: Codable { var day: LocalDate }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Box.self, from: json) }
    }

    // MARK: Arithmetic

    @Test("H2: adding days across months, years and leap days",
          arguments: [
              ("2024-02-28", 1, "2024-02-29"),
              ("2024-02-28", 2, "2024-03-01"),
              ("2025-02-28", 1, "2025-03-01"),
              ("2024-12-31", 1, "2025-01-01"),
              ("2025-01-01", -1, "2024-12-31"),
              ("2024-03-01", -1, "2024-02-29"),
              ("2023-03-01", -1, "2023-02-28"),
              ("2025-01-31", 1, "2025-02-01"),
              ("2025-04-30", 1, "2025-05-01"),
              ("2024-01-01", 366, "2025-01-01"),
              ("2025-01-01", 365, "2026-01-01"),
              ("2025-06-15", 0, "2025-06-15"),
              ("2000-02-28", 1, "2000-02-29"),
              ("1900-02-28", 1, "1900-03-01"),
          ])
    func addingDays(_ start: String, _ offset: Int, _ expected: String) {
        #expect(day(start).adding(days: offset) == day(expected))
        #expect(day(start).days(to: day(expected)) == offset)
        #expect(day(expected).days(to: day(start)) == -offset)
    }

    @Test("H2: day arithmetic agrees with Foundation's Gregorian calendar over ten years")
    func arithmeticMatchesCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Zones.utc
        let start = day("2020-01-01")
        let startInstant = wall(2020, 1, 1, 12, 0, in: Zones.utc)
        for offset in stride(from: -400, through: 3700, by: 1) {
            let instant = calendar.date(byAdding: .day, value: offset, to: startInstant)!
            let expected = LocalDate(containing: instant, in: Zones.utc)
            let actual = start.adding(days: offset)
            if actual != expected {
                Issue.record("2020-01-01 + \(offset) days: \(actual), expected \(expected)")
                return
            }
            // ISO weekday: Foundation's weekday is Sunday 1 … Saturday 7.
            let foundationWeekday = calendar.component(.weekday, from: instant)
            let isoWeekday = foundationWeekday == 1 ? 7 : foundationWeekday - 1
            if actual.isoWeekday != isoWeekday {
                Issue.record("\(actual): isoWeekday \(actual.isoWeekday), expected \(isoWeekday)")
                return
            }
        }
    }

    @Test("H2: days(to:) counts whole days, positive when the other day is later")
    func daysTo() {
        #expect(day("2025-03-01").days(to: day("2025-03-31")) == 30)
        #expect(day("2024-02-01").days(to: day("2024-03-01")) == 29)
        #expect(day("2025-02-01").days(to: day("2025-03-01")) == 28)
        #expect(day("2025-12-25").days(to: day("2025-12-24")) == -1)
        #expect(day("2025-12-25").days(to: day("2025-12-25")) == 0)
    }

    @Test("H2: ISO weekday, Monday 1 … Sunday 7",
          arguments: [("2025-09-01", 1), ("2025-09-02", 2), ("2025-09-03", 3), ("2025-09-04", 4),
                      ("2025-09-05", 5), ("2025-09-06", 6), ("2025-09-07", 7), ("2025-06-01", 7),
                      ("2024-02-29", 4), ("2000-01-01", 6)])
    func isoWeekday(_ text: String, _ weekday: Int) {
        #expect(day(text).isoWeekday == weekday)
    }

    @Test("H2: days order by year, then month, then day")
    func ordering() {
        let days = ["2025-01-10", "2024-12-31", "2025-01-02", "2024-02-29"].map(day)
        #expect(days.sorted().map(\.description) == ["2024-02-29", "2024-12-31", "2025-01-02", "2025-01-10"])
        #expect(day("2024-12-31") < day("2025-01-01"))
        #expect(!(day("2025-01-01") < day("2025-01-01")))
    }

    // MARK: Days in a time zone

    @Test("H2: the day containing an instant depends on the zone")
    func containingDependsOnZone() {
        let instant = utc("2025-06-10T22:30:00Z")
        #expect(LocalDate(containing: instant, in: Zones.utc) == day("2025-06-10"))
        #expect(LocalDate(containing: instant, in: Zones.berlin) == day("2025-06-11"))    // 00:30 CEST
        #expect(LocalDate(containing: instant, in: Zones.newYork) == day("2025-06-10"))   // 18:30 EDT
        #expect(LocalDate(containing: instant, in: Zones.tokyo) == day("2025-06-11"))     // 07:30 JST
    }

    /// What `LocalDate(containing:in:)` counted before it did its own arithmetic: the calendar's day.
    static func calendarDay(_ instant: Date, _ zone: TimeZone) -> [Int] {
        let parts = Calendar.gregorian(zone).dateComponents([.year, .month, .day], from: instant)
        return [parts.year!, parts.month!, parts.day!]
    }

    static func ymd(_ instant: Date, _ zone: TimeZone) -> [Int] {
        let date = LocalDate(containing: instant, in: zone)
        return [date.year, date.month, date.day]
    }

    @Test("H2: the day containing any instant, in any zone, is the one Foundation's calendar gives")
    func containingMatchesTheCalendar() async {
        let zones = TimeZone.knownTimeZoneIdentifiers.compactMap(TimeZone.init(identifier:))
        // 1583-01-01 to 9999-12-31, with fractions of a second; and the last second of a day and
        // the first of the next in each zone, where rounding would show.
        await propertyCheck(count: 3000, input: Gen.int(in: -12_212_553_600...253_402_300_799), Gen.int(in: 0...(zones.count - 1)),
                            Gen.int(in: 0...999)) { seconds, zoneIndex, millis in
            let zone = zones[zoneIndex]
            let instant = Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
            #expect(Self.ymd(instant, zone) == Self.calendarDay(instant, zone), "\(instant) in \(zone.identifier)")
            let midnight = LocalDate(containing: instant, in: zone).start(in: zone)
            for edge in [midnight.addingTimeInterval(-0.001), midnight, midnight.addingTimeInterval(0.001)] {
                #expect(Self.ymd(edge, zone) == Self.calendarDay(edge, zone), "\(edge) in \(zone.identifier)")
            }
        }
    }

    @Test("H2: before 1583 and after 9999 the calendar itself answers")
    func containingOutsideTheArithmetic() {
        for text in ["1582-10-15T12:00:00Z", "1000-03-01T00:00:00Z", "0001-01-01T00:00:00Z", "1582-12-31T23:59:59Z"] {
            let instant = InternetTime.instant(text)!
            #expect(Self.ymd(instant, Zones.utc) == Self.calendarDay(instant, Zones.utc), "\(text)")
        }
        let far = Date(timeIntervalSince1970: 253_402_300_800 + 86_400 * 40)  // 10000-02-10
        #expect(Self.ymd(far, Zones.utc) == Self.calendarDay(far, Zones.utc))
        #expect(LocalDate(containing: far, in: Zones.utc).year == 10000)
    }

    @Test("H2: an ordinary day is 24 hours from local midnight to local midnight")
    func ordinaryDay() {
        let interval = day("2025-06-10").interval(in: Zones.berlin)
        #expect(interval.start == utc("2025-06-09T22:00:00Z"))
        #expect(interval.end == utc("2025-06-10T22:00:00Z"))
        #expect(interval.duration == 24 * 3600)
    }

    struct DSTCase: Sendable, CustomTestStringConvertible {
        let zone: String
        let date: String
        let start: String
        let end: String
        let hours: Double
        var testDescription: String { "\(zone) \(date) (\(Int(hours)) h)" }
    }

    static let dstCases = [
        DSTCase(zone: "Europe/Berlin", date: "2025-03-30", start: "2025-03-29T23:00:00Z", end: "2025-03-30T22:00:00Z", hours: 23),
        DSTCase(zone: "Europe/Berlin", date: "2025-10-26", start: "2025-10-25T22:00:00Z", end: "2025-10-26T23:00:00Z", hours: 25),
        DSTCase(zone: "America/New_York", date: "2025-03-09", start: "2025-03-09T05:00:00Z", end: "2025-03-10T04:00:00Z", hours: 23),
        DSTCase(zone: "America/New_York", date: "2025-11-02", start: "2025-11-02T04:00:00Z", end: "2025-11-03T05:00:00Z", hours: 25),
    ]

    @Test("H2: days when clocks change are 23 or 25 hours long", arguments: dstCases)
    func dstDayLength(_ c: DSTCase) throws {
        let zone = try #require(TimeZone(identifier: c.zone))
        let interval = day(c.date).interval(in: zone)
        #expect(interval.start == utc(c.start))
        #expect(interval.end == utc(c.end))
        #expect(interval.duration == c.hours * 3600)
        // The days either side are ordinary.
        #expect(day(c.date).adding(days: -1).interval(in: zone).duration == 24 * 3600)
        #expect(day(c.date).adding(days: 1).interval(in: zone).duration == 24 * 3600)
        // Consecutive days tile time: each ends where the next starts.
        #expect(day(c.date).adding(days: -1).interval(in: zone).end == interval.start)
        #expect(day(c.date).adding(days: 1).interval(in: zone).start == interval.end)
    }

    @Test("H2: instants just before and after local midnight belong to the right day on DST days",
          arguments: dstCases)
    func dstMidnightBoundaries(_ c: DSTCase) throws {
        let zone = try #require(TimeZone(identifier: c.zone))
        let date = day(c.date)
        let start = utc(c.start)
        let end = utc(c.end)
        #expect(LocalDate(containing: start.addingTimeInterval(-1), in: zone) == date.adding(days: -1))
        #expect(LocalDate(containing: start, in: zone) == date)
        #expect(LocalDate(containing: start.addingTimeInterval(1), in: zone) == date)
        #expect(LocalDate(containing: end.addingTimeInterval(-1), in: zone) == date)
        #expect(LocalDate(containing: end, in: zone) == date.adding(days: 1))
        // Every hour of the long or short day belongs to it.
        var instant = start
        while instant < end {
            #expect(LocalDate(containing: instant, in: zone) == date)
            instant += 1800
        }
    }

    @Test("H2: both 02:30s of the Berlin autumn change belong to 2025-10-26")
    func repeatedHourBelongsToTheDay() {
        // 02:30 CEST (00:30Z) and 02:30 CET (01:30Z).
        #expect(LocalDate(containing: utc("2025-10-26T00:30:00Z"), in: Zones.berlin) == day("2025-10-26"))
        #expect(LocalDate(containing: utc("2025-10-26T01:30:00Z"), in: Zones.berlin) == day("2025-10-26"))
    }

    @Test("H2: a day whose midnight is skipped starts at the first instant that exists")
    func skippedMidnight() throws {
        // São Paulo moved its clocks from 00:00 to 01:00 on 2018-11-04: that day starts at 01:00 -02.
        let zone = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        let interval = day("2018-11-04").interval(in: zone)
        #expect(interval.start == utc("2018-11-04T03:00:00Z"))
        #expect(interval.duration == 23 * 3600)
        #expect(LocalDate(containing: interval.start, in: zone) == day("2018-11-04"))
        #expect(LocalDate(containing: interval.start.addingTimeInterval(-1), in: zone) == day("2018-11-03"))
    }

    @Test("H2: the start of a day is the first instant of that day in the zone",
          arguments: ["Europe/Berlin", "America/New_York", "UTC", "Asia/Tokyo", "Australia/Lord_Howe", "Asia/Kolkata"])
    func startIsLocalMidnight(_ identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var date = day("2025-01-01")
        for _ in 0..<365 {
            let start = date.start(in: zone)
            #expect(LocalDate(containing: start, in: zone) == date)
            #expect(LocalDate(containing: start.addingTimeInterval(-1), in: zone) == date.adding(days: -1))
            date = date.adding(days: 1)
        }
    }

    @Test("A typed date is read, or refused in one sentence that shows what was typed, control characters named, and where")
    func parseTyped() throws {
        #expect(try LocalDate.parse("2024-02-29") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(throws: TallyError.invalid("\"2025-02-29\" is not a date: write it as YYYY-MM-DD, such as 2025-03-30.")) {
            try LocalDate.parse("2025-02-29")
        }
        #expect(throws: TallyError.invalid("\"13/4U+202E\" is not a date for --from: write it as YYYY-MM-DD, such as 2025-03-30.")) {
            try LocalDate.parse("13/4\u{202E}", field: "--from")
        }
    }
}

/// H9: the month of the history calendar.
@Suite("YearMonth (H9)")
struct YearMonthTests {
    @Test("H9: parses and prints YYYY-MM")
    func parsesAndPrints() throws {
        let value = try #require(YearMonth("2025-09"))
        #expect(value.year == 2025 && value.month == 9)
        #expect(value.description == "2025-09")
    }

    @Test("H9: refuses text that is not a month", arguments: ["2025-13", "2025-00", "2025-9", "25-09", "2025", "", "2025-09-01", "2025-+9"])
    func refuses(_ text: String) {
        #expect(YearMonth(text) == nil)
    }

    @Test("H9: first and last day, and the days of a month")
    func days() {
        #expect(month("2024-02").days.count == 29)
        #expect(month("2025-02").days.count == 28)
        #expect(month("2025-04").days.count == 30)
        #expect(month("2025-12").days.count == 31)
        #expect(month("2024-02").firstDay == day("2024-02-01"))
        #expect(month("2024-02").lastDay == day("2024-02-29"))
        #expect(month("2025-12").days.first == day("2025-12-01"))
        #expect(month("2025-12").days.last == day("2025-12-31"))
        #expect(day("2024-02-29").yearMonth == month("2024-02"))
    }

    @Test("H9: previous and next month across year boundaries")
    func previousAndNext() {
        #expect(month("2025-01").previous == month("2024-12"))
        #expect(month("2024-12").next == month("2025-01"))
        #expect(month("2025-06").previous == month("2025-05"))
        #expect(month("2025-06").next == month("2025-07"))
    }

    @Test("H9: the first and last representable months do not trap when asked for their neighbours")
    func edgesOfTheRange() {
        // A month typed into the API (?month=9999-12) must not crash the server.
        #expect(month("9999-12").next >= month("9999-12"))
        #expect(month("0001-01").previous <= month("0001-01"))
    }

    @Test("H9: Codable as a YYYY-MM string")
    func codable() throws {
        let data = try JSONEncoder().encode([month("2025-03")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2025-03"]"#)
        #expect(try JSONDecoder().decode([YearMonth].self, from: data) == [month("2025-03")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([YearMonth].self, from: Data(#"["2025-13"]"#.utf8)) }
    }
}
