import Foundation

/// A calendar day as a person sees it on a wall calendar, with no time and no zone.
///
/// A day's instants depend on the time zone it is seen in: `interval(in:)` gives them, and is
/// 23 or 25 hours long on the days clocks change.
public struct LocalDate: Hashable, Comparable, Sendable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Builds a date, refusing days that do not exist (2025-02-30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDate.daysIn(year: year, month: month)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day that contains `instant` in `timeZone`: the instant's wall-clock time there (its
    /// offset then added) counted in whole days from 1970-01-01. Integer maths instead of a
    /// `Calendar`, whose making and reading cost every request and command a few microseconds
    /// (bench/server.sh). Before 1583, where Foundation's Gregorian calendar counts days the
    /// Julian way, the calendar answers, so that both give the same day.
    public init(containing instant: Date, in timeZone: TimeZone) {
        let local = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        let days = (local / 86_400).rounded(.down)
        if (Double(Self.arithmeticDays.lowerBound)...Double(Self.arithmeticDays.upperBound)).contains(days) {
            self = LocalDate(unixDay: Int(days))
            return
        }
        let parts = Calendar.gregorian(timeZone).dateComponents([.year, .month, .day], from: instant)
        self.year = parts.year!
        self.month = parts.month!
        self.day = parts.day!
    }

    /// Parses `YYYY-MM-DD`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }), // Int() takes "+1"
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// The first instant of this day in `timeZone` (not always 00:00: some zones skip midnight).
    public func start(in timeZone: TimeZone) -> Date {
        let calendar = Calendar.gregorian(timeZone)
        let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!
        return calendar.startOfDay(for: noon)
    }

    /// The instants of this day in `timeZone`: from its start to the next day's start.
    public func interval(in timeZone: TimeZone) -> DateInterval {
        DateInterval(start: start(in: timeZone), end: adding(days: 1).start(in: timeZone))
    }

    public func adding(days: Int) -> LocalDate {
        let julian = julianDay + days
        return LocalDate(julianDay: julian)
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.julianDay - julianDay }

    /// Monday 1 … Sunday 7 (ISO 8601).
    public var isoWeekday: Int { (julianDay % 7) + 1 }

    public var yearMonth: YearMonth { YearMonth(year: year, month: month)! }

    static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Day arithmetic without a calendar: the Julian day number is plain integer maths
    // (Fliegel & Van Flandern), so stepping through ten years of days costs nothing.
    var julianDay: Int {
        let a = (14 - month) / 12
        let y = year + 4800 - a
        let m = month + 12 * a - 3
        return day + (153 * m + 2) / 5 + 365 * y + y / 4 - y / 100 + y / 400 - 32045
    }

    /// Days since 1970-01-01: what a day adds to an instant's seconds since then.
    package var unixDay: Int { julianDay - Self.julianDayOfUnixEpoch }

    package init(unixDay: Int) { self.init(julianDay: unixDay + Self.julianDayOfUnixEpoch) }

    private static let julianDayOfUnixEpoch = 2_440_588
    /// The days (as `unixDay`) that this arithmetic counts as Foundation's Gregorian calendar
    /// does: from 1583-01-01, the first whole year after the calendar leaves the Julian count
    /// (on 1582-10-15), to 9999-12-31, the last day a LocalDate is made for.
    package static let arithmeticDays = LocalDate(year: 1583, month: 1, day: 1)!.unixDay...LocalDate(year: 9999, month: 12, day: 31)!.unixDay

    init(julianDay jd: Int) {
        let a = jd + 32044
        let b = (4 * a + 3) / 146097
        let c = a - 146097 * b / 4
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        day = e - (153 * m + 2) / 5 + 1
        month = m + 3 - 12 * (m / 10)
        year = 100 * b + d - 4800 + m / 10
    }
}

extension LocalDate: CustomStringConvertible, LosslessStringConvertible {
    /// `YYYY-MM-DD`. Made digit by digit: `String(format:)` cost every day in an API answer
    /// a few microseconds (bench/server.sh).
    public var description: String {
        DigitWriter.string(length: DigitWriter.dateLength(year: year)) { $0.date(year: year, month: month, day: day) }
    }
}

extension LocalDate: TextCodable {
    public static let example = "2025-03-30"

    /// The day `text` writes as YYYY-MM-DD, or a refusal a person can act on, with what they
    /// typed shown as `UserText.quoted` shows it (control characters named, not acted on).
    /// `field` says where it was typed, when a form or a command has several dates ("--from").
    public static func parse(_ text: String, field: String? = nil) throws -> LocalDate {
        if let date = LocalDate(text) { return date }
        if let field {
            throw TallyError.invalid("\(UserText.quoted(text)) is not a date for \(field): write it as YYYY-MM-DD, such as \(example).")
        }
        throw TallyError.invalid("\(UserText.quoted(text)) is not a date: write it as YYYY-MM-DD, such as \(example).")
    }
}

/// A month of a year, for the history calendar.
public struct YearMonth: Hashable, Comparable, Sendable, LosslessStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    /// Parses `YYYY-MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }), // Int() takes "+1"
              let y = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(year: y, month: m)
    }

    public static func < (a: YearMonth, b: YearMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    public var firstDay: LocalDate { LocalDate(year: year, month: month, day: 1)! }
    public var lastDay: LocalDate { LocalDate(year: year, month: month, day: LocalDate.daysIn(year: year, month: month))! }
    public var days: [LocalDate] { (0...firstDay.days(to: lastDay)).map { firstDay.adding(days: $0) } }
    /// The month before; the first representable month (0001-01) is its own previous.
    public var previous: YearMonth { month == 1 ? YearMonth(year: year - 1, month: 12) ?? self : YearMonth(year: year, month: month - 1)! }
    /// The month after; the last representable month (9999-12) is its own next.
    public var next: YearMonth { month == 12 ? YearMonth(year: year + 1, month: 1) ?? self : YearMonth(year: year, month: month + 1)! }

    public var description: String {
        DigitWriter.string(length: DigitWriter.length(of: year, width: 4) + 3) { text in
            text.digits(year, 4)
            text.character("-")
            text.digits(month, 2)
        }
    }
}

extension YearMonth: TextCodable {
    public static let example = "2025-03"
}

/// Values that travel in JSON as their text form ("2025-03-30"), refusing text that is not one.
public protocol TextCodable: Codable, LosslessStringConvertible {
    static var example: String { get }
}

extension TextCodable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "\(text) is not like \(Self.example)."))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Calendar {
    /// A Gregorian calendar in `timeZone`: the only calendar Tally's days are counted in.
    public static func gregorian(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
