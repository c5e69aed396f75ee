import Foundation

/// When a recurring expense comes round: every week on a weekday, every month on a day, or every
/// year on a month's day. A day the month lacks falls on its last day: the 31st is 30 April and
/// 28 February (29 in a leap year), and 29 February is the 28th in other years.
public enum RecurrenceRule: Hashable, Sendable {
    /// ISO 8601 weekday: Monday 1 … Sunday 7.
    case weekly(weekday: Int)
    /// Day 1–31 of every month.
    case monthly(day: Int)
    /// A month (1–12) and a day of it that some year has (29 February, never 30 February).
    case yearly(month: Int, day: Int)

    /// How often, in words: what the API and the command line call it.
    public enum Frequency: String, NamedChoice, Sendable {
        case week, month, year
    }

    /// Builds a rule, refusing days that never come, and days the frequency does not use (a
    /// weekly expense on "the 15th" is a mistake to point out, not to ignore).
    public init(every frequency: Frequency, weekday: Int? = nil, day: Int? = nil, month: Int? = nil) throws {
        let unused: [(value: Int?, refusal: Phrase)] = switch frequency {
        case .week: [(day, Phrase("An expense every week has no day: leave it out, or repeat it by another period.")),
                     (month, Phrase("An expense every week has no month: leave it out, or repeat it by another period."))]
        case .month: [(weekday, Phrase("An expense every month has no weekday: leave it out, or repeat it by another period.")),
                      (month, Phrase("An expense every month has no month: leave it out, or repeat it by another period."))]
        case .year: [(weekday, Phrase("An expense every year has no weekday: leave it out, or repeat it by another period."))]
        }
        if let field = unused.first(where: { $0.value != nil }) {
            throw TallyError.invalid(field.refusal, field: "repeat")
        }
        switch frequency {
        case .week:
            guard let weekday, (1...7).contains(weekday) else {
                throw TallyError.invalid("A weekly expense needs its weekday: 1 (Monday) to 7 (Sunday).", field: "repeat")
            }
            self = .weekly(weekday: weekday)
        case .month:
            guard let day, (1...31).contains(day) else {
                throw TallyError.invalid("A monthly expense needs its day of the month, 1 to 31 (a day a month lacks falls on its last day).", field: "repeat")
            }
            self = .monthly(day: day)
        case .year:
            guard let month, (1...12).contains(month) else {
                throw TallyError.invalid("A yearly expense needs its month, 1 to 12.", field: "repeat")
            }
            let longest = LocalDate.daysIn(year: 2000, month: month) // a leap year: 29 February counts
            guard let day, (1...longest).contains(day) else {
                throw TallyError.invalid("A yearly expense needs a day that \(YearMonth(year: 2000, month: month)!.monthPhrase) has: 1 to \(longest).", field: "repeat")
            }
            self = .yearly(month: month, day: day)
        }
    }

    /// The rule whose occurrences fall on `date`'s weekday, day of the month, or day of the year.
    public init(every frequency: Frequency, like date: LocalDate) {
        switch frequency {
        case .week: self = .weekly(weekday: date.isoWeekday)
        case .month: self = .monthly(day: date.day)
        case .year: self = .yearly(month: date.month, day: date.day)
        }
    }

    public var frequency: Frequency {
        switch self {
        case .weekly: .week
        case .monthly: .month
        case .yearly: .year
        }
    }

    /// The first occurrence on `date` or after it; nil past the last representable year.
    public func occurrence(onOrAfter date: LocalDate) -> LocalDate? {
        switch self {
        case .weekly(let weekday):
            let next = date.adding(days: (weekday - date.isoWeekday + 7) % 7)
            return next.year <= 9999 ? next : nil
        case .monthly(let day):
            var month = date.yearMonth
            for _ in 0..<2 {
                let candidate = Self.clamped(day, in: month)
                if candidate >= date { return candidate }
                guard month.next != month else { return nil }
                month = month.next
            }
            return nil
        case .yearly(let month, let day):
            for year in date.year...min(date.year + 1, 9999) {
                let candidate = Self.clamped(day, in: YearMonth(year: year, month: month)!)
                if candidate >= date { return candidate }
            }
            return nil
        }
    }

    /// The first occurrence after `date`.
    public func occurrence(after date: LocalDate) -> LocalDate? {
        guard date.year < 9999 || date < YearMonth(year: 9999, month: 12)!.lastDay else { return nil }
        return occurrence(onOrAfter: date.adding(days: 1))
    }

    /// `day` of `month`, or the month's last day when it is shorter.
    private static func clamped(_ day: Int, in month: YearMonth) -> LocalDate {
        LocalDate(year: month.year, month: month.month, day: min(day, month.lastDay.day))!
    }

    /// "every week on Monday", "every month on the 31st", "every year on 29 February", in English.
    public var summary: String { summaryPhrase.description }

    /// The summary as a phrase, written in the reader's language: "every week on Monday".
    public var summaryPhrase: Phrase {
        switch self {
        case .weekly(let weekday): Phrase("every week on \(LocalDate(year: 2024, month: 1, day: weekday)!.weekdayPhrase)") // 1 January 2024 was a Monday
        case .monthly(let day):
            switch Self.ordinal(day) {
            case .first: Phrase("every month on the \(day)st")
            case .second: Phrase("every month on the \(day)nd")
            case .third: Phrase("every month on the \(day)rd")
            case .other: Phrase("every month on the \(day)th")
            }
        case .yearly(let month, let day): Phrase("every year on \(day) \(YearMonth(year: 2000, month: month)!.monthPhrase)")
        }
    }

    /// The summary starting a sentence: "Every week on Monday".
    public var summaryPhraseAtStart: Phrase {
        switch self {
        case .weekly(let weekday): Phrase("Every week on \(LocalDate(year: 2024, month: 1, day: weekday)!.weekdayPhrase)")
        case .monthly(let day):
            switch Self.ordinal(day) {
            case .first: Phrase("Every month on the \(day)st")
            case .second: Phrase("Every month on the \(day)nd")
            case .third: Phrase("Every month on the \(day)rd")
            case .other: Phrase("Every month on the \(day)th")
            }
        case .yearly(let month, let day): Phrase("Every year on \(day) \(YearMonth(year: 2000, month: month)!.monthPhrase)")
        }
    }

    /// Which English ordinal ending a day takes: 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st, 22nd, 23rd … 31st.
    private enum Ordinal { case first, second, third, other }

    private static func ordinal(_ number: Int) -> Ordinal {
        switch (number % 10, number % 100) {
        case (_, 11...13): .other
        case (1, _): .first
        case (2, _): .second
        case (3, _): .third
        default: .other
        }
    }
}
