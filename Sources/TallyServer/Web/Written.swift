import Foundation
import Hummingbird
import TallyCore

/// How the web app writes amounts, volumes, days and times for the person reading: the one
/// place where numbers and dates become text, in the reader's locale (from their browser's
/// Accept-Language), on Foundation's formatters. A page never formats a number itself.
struct Written: Sendable {
    let locale: Locale

    /// The locale of the request being answered (set by `WrittenMiddleware`); English as the
    /// United States writes it where none is known.
    @TaskLocal static var current = Written(locale: Locale(identifier: "en_US"))

    /// "$1,000,582.98", "€12.50", "¥1,234", "1.234,56 €": the currency's symbol where the locale
    /// has one, its grouping, exactly the currency's decimals, and a true minus sign.
    func money(_ money: Money) -> String {
        let units = money.minorUnits.magnitude
        let amount = Decimal(sign: money.minorUnits < 0 ? .minus : .plus, exponent: -money.currency.minorUnits,
                             significand: Decimal(units))
        let style = Decimal.FormatStyle.Currency(code: money.currency.code, locale: locale)
            .precision(.fractionLength(money.currency.minorUnits))
        // The number and its symbol never part at the end of a line.
        return Self.unbroken(amount.formatted(style).replacingOccurrences(of: "-", with: "−"))
    }

    /// The locale as a BCP 47 tag ("en-US"), for the page's scripts (Intl) to write as the server does.
    var languageTag: String { locale.identifier.replacingOccurrences(of: "_", with: "-") }

    /// Spaces (also the narrow ones some locales put before a currency) that never break a line.
    private static func unbroken(_ text: String) -> String {
        text.replacingOccurrences(of: " ", with: "\u{00A0}").replacingOccurrences(of: "\u{202F}", with: "\u{00A0}")
    }

    /// "1250 ml", "12.5 oz": millilitres whole, ounces with a decimal where it matters, in the
    /// locale's decimal sign. Not grouped: the app's scripts and its sentences write volumes
    /// the same way, and no volume reaches five digits.
    func volume(_ ml: Double, _ unit: VolumeUnit) -> String {
        let value = unit.fromMilliliters(ml)
        guard value.isFinite, abs(value) < 1e15 else { return unit.format(ml) }
        let digits = unit == .oz ? 0...1 : 0...0
        return value.formatted(.number.precision(.fractionLength(digits)).rounded(rule: .toNearestOrAwayFromZero).grouping(.never).locale(locale)).replacingOccurrences(of: "-", with: "−")
            + " " + unit.rawValue
    }

    /// "Today", "Yesterday", "Tomorrow", else "Mon 24 Nov" (in the locale's order), with the
    /// year when it is not this one.
    func day(_ day: LocalDate, today: LocalDate) -> String {
        switch day.days(to: today) {
        case 0: return "Today"
        case 1: return "Yesterday"
        case -1: return "Tomorrow"
        default:
            var style = Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.abbreviated).day().month(.abbreviated)
            if day.year != today.year { style = style.year() }
            return noon(day).formatted(style)
        }
    }

    /// "Tue", "Di.": the day's weekday, short, for a chart's label.
    func weekday(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.abbreviated))
    }

    /// "Mo", "Di": the weekday's narrowest name that still tells the days apart, for a calendar's heading.
    func weekdayHeading(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.short))
    }

    /// "June 13", "13. Juni": a day of a month, without its year.
    func dayOfMonth(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).day().month(.wide))
    }

    /// "Nov", "Nov.": a month's short name, for a chart's label.
    func shortMonth(_ month: YearMonth) -> String {
        guard let first = LocalDate(year: month.year, month: month.month, day: 1) else { return month.description }
        return noon(first).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).month(.abbreviated))
    }

    /// "June 2025", "Juni 2025": a month and its year.
    func month(_ month: YearMonth) -> String {
        guard let first = LocalDate(year: month.year, month: month.month, day: 1) else { return month.description }
        return noon(first).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).month(.wide).year())
    }

    /// "24 November 2026" (or "November 24, 2026"), as the locale writes a date in full.
    func longDay(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: .gmt))
    }

    /// "9:05 PM" or "21:05": the locale's short time, in the person's zone.
    func time(_ instant: Date, in zone: TimeZone) -> String {
        Self.unbroken(instant.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: zone)))
    }

    /// "7:00 AM" or "07:00": a time of any day (a wake time, a reminder window), as the locale writes it.
    func time(of time: TimeOfDay) -> String {
        self.time(Date(timeIntervalSince1970: Double(time.minutes * 60)), in: .gmt)
    }

    /// "70.5", "70,5": a plain number (a weight) with the locale's decimal sign, up to two decimals.
    func decimal(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(0...2)).locale(locale))
    }

    /// "24 Nov 2026, 21:05": a moment further away (sessions, tokens, invites).
    func moment(_ instant: Date, in zone: TimeZone) -> String {
        // The time keeps its "PM"; the date may wrap between its words.
        instant.formatted(Date.FormatStyle(date: .abbreviated, time: .shortened, locale: locale, timeZone: zone))
            .replacingOccurrences(of: "\u{202F}", with: "\u{00A0}")
    }

    private func noon(_ day: LocalDate) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
    }
}

extension Written {
    /// The reader's locale from an Accept-Language header: its first language tag that Foundation
    /// knows, such as "de-DE" or "en-GB"; English (US) for none, "*", or anything malformed.
    init(acceptLanguage header: String?) {
        let tags = (header ?? "").split(separator: ",").lazy
            .map { $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            .filter { tag in
                (2...35).contains(tag.count) && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
        let chosen = tags.lazy.map { $0.replacingOccurrences(of: "-", with: "_") }
            .first { Self.known.contains($0) || Self.known.contains(String($0.prefix { $0 != "_" })) }
        self.init(locale: Locale(identifier: chosen ?? "en_US"))
    }

    /// The locales Foundation knows, read once (about 800).
    private static let known = Set(Locale.availableIdentifiers)
}

/// Answers each web page in the reader's locale: `Written.current` for the request.
struct WrittenMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await Written.$current.withValue(Written(acceptLanguage: request.headers[.acceptLanguage])) {
            try await next(request, context)
        }
    }
}
