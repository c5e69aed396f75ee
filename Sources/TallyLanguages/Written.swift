import Foundation
import Synchronization
import TallyCore

/// How Tally writes for the person reading: the one place where phrases, numbers and dates
/// become text, in the reader's language and locale, on a catalog and Foundation's formatters.
/// A page never formats a number itself, and never writes a sentence but through `say`.
public struct Written: Sendable {
    public let language: Language
    public let locale: Locale
    private let catalog: Catalog

    public init(language: Language, locale: Locale? = nil) {
        self.language = language
        self.locale = locale ?? Locale(identifier: language.locale)
        catalog = Catalog.of(language)
    }

    /// How the request being answered (or the command being run) writes; English as the United
    /// States writes it where nothing else is known.
    @TaskLocal public static var current = Written(language: .english)

    /// The phrase in this language, its values in this locale.
    public func say(_ phrase: Phrase) -> String {
        let template = catalog.template(for: phrase)
        return Phrase.filling(template, with: phrase.values.map { value in
            switch value {
            case .text(let text): text
            case .count(let count): count.formatted(.number.locale(locale))
            case .phrase(let inner): say(inner)
            case .money(let amount): money(amount)
            }
        })
    }

    /// "$1,000,582.98", "€12.50", "¥1,234", "1.234,56 €": the currency's symbol where the locale
    /// has one, its grouping, exactly the currency's decimals, and a true minus sign.
    public func money(_ money: Money) -> String {
        let style = Decimal.FormatStyle.Currency(code: money.currency.code, locale: locale)
            .precision(.fractionLength(money.currency.minorUnits))
        // The number and its symbol never part at the end of a line.
        return Self.typeset(money.decimal.formatted(style), minus: true, unbroken: true)
    }

    /// "12.50", "12,50": an amount as the reader types it, without its currency, with exactly
    /// the currency's decimals (an example in a form's hint).
    public func amount(_ money: Money) -> String {
        money.decimal.formatted(.number.precision(.fractionLength(money.currency.minorUnits)).locale(locale))
    }

    /// The locale as a BCP 47 tag ("en-US"), for the page's scripts (Intl) to write as the server does.
    public var languageTag: String { locale.identifier.replacingOccurrences(of: "_", with: "-") }

    /// `text` with a true minus sign for each hyphen (`minus`), and with spaces, also the narrow
    /// ones some locales put before a currency, that never break a line (`unbroken`). One pass over
    /// its scalars: Foundation's `replacingOccurrences` went through NSString, and cost a ledger
    /// page a tenth of its CPU (perf).
    static func typeset(_ text: String, minus: Bool = false, unbroken: Bool = false) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "-" where minus: scalars.append("\u{2212}")
            case " " where unbroken, "\u{202F}" where unbroken: scalars.append("\u{00A0}")
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// "1250 ml", "12.5 oz": millilitres whole, ounces with a decimal where it matters, in the
    /// locale's decimal sign. Not grouped: the app's scripts and its sentences write volumes
    /// the same way, and no volume reaches five digits.
    public func volume(_ ml: Double, _ unit: VolumeUnit) -> String {
        let value = unit.fromMilliliters(ml)
        guard value.isFinite, abs(value) < 1e15 else { return unit.format(ml) }
        let digits = unit == .oz ? 0...1 : 0...0
        return Self.typeset(value.formatted(.number.precision(.fractionLength(digits)).rounded(rule: .toNearestOrAwayFromZero).grouping(.never).locale(locale)), minus: true)
            + " " + unit.rawValue
    }

    /// "Today", "Yesterday", "Tomorrow", else "Mon 24 Nov" (in the locale's order), with the
    /// year when it is not this one.
    public func day(_ day: LocalDate, today: LocalDate) -> String {
        switch day.days(to: today) {
        case 0: return say(Phrase("Today"))
        case 1: return say(Phrase("Yesterday"))
        case -1: return say(Phrase("Tomorrow"))
        default:
            var style = Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.abbreviated).day().month(.abbreviated)
            if day.year != today.year { style = style.year() }
            return noon(day).formatted(style)
        }
    }

    /// "Tue", "Di.": the day's weekday, short, for a chart's label.
    public func weekday(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.abbreviated))
    }

    /// "Mo", "Di": the weekday's narrowest name that still tells the days apart, for a calendar's heading.
    public func weekdayHeading(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).weekday(.short))
    }

    /// "June 13", "13. Juni": a day of a month, without its year.
    public func dayOfMonth(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).day().month(.wide))
    }

    /// "Nov", "Nov.": a month's short name, for a chart's label.
    public func shortMonth(_ month: YearMonth) -> String {
        guard let first = LocalDate(year: month.year, month: month.month, day: 1) else { return month.description }
        return noon(first).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).month(.abbreviated))
    }

    /// "June 2025", "Juni 2025": a month and its year.
    public func month(_ month: YearMonth) -> String {
        guard let first = LocalDate(year: month.year, month: month.month, day: 1) else { return month.description }
        return noon(first).formatted(Date.FormatStyle(locale: locale, timeZone: .gmt).month(.wide).year())
    }

    /// "Jan 1, 2027", "01.01.2027": a day with its year, short, as the locale writes it.
    public func date(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: locale, timeZone: .gmt))
    }

    /// Every ISO 4217 code people use with its name in this language ("EUR", "Euro"), by name;
    /// worked out once per language.
    public var currencies: [(code: String, name: String)] {
        let tag = languageTag
        if let known = Self.currencyNames.withLock({ $0[tag] }) { return known }
        let codes = Locale.commonISOCurrencyCodes.filter { $0.count == 3 && $0.allSatisfy(\.isUppercase) }
        let named = codes.map { (code: $0, name: locale.localizedString(forCurrencyCode: $0) ?? $0) }
            .sorted { $0.name.compare($1.name, locale: locale) == .orderedAscending }
        Self.currencyNames.withLock { $0[tag] = named }
        return named
    }

    private static let currencyNames = Mutex<[String: [(code: String, name: String)]]>([:])

    /// "Ana, Ben and Kim", "Ana, Ben und Kim": items listed as the reader's language lists them.
    public func list(_ items: [String]) -> String {
        items.formatted(.list(type: .and).locale(locale))
    }

    /// "24 November 2026" (or "November 24, 2026"), as the locale writes a date in full.
    public func longDay(_ day: LocalDate) -> String {
        noon(day).formatted(Date.FormatStyle(date: .long, time: .omitted, locale: locale, timeZone: .gmt))
    }

    /// "9:05 PM" or "21:05": the locale's short time, in the person's zone.
    public func time(_ instant: Date, in zone: TimeZone) -> String {
        Self.typeset(instant.formatted(Date.FormatStyle(date: .omitted, time: .shortened, locale: locale, timeZone: zone)), unbroken: true)
    }

    /// "7:00 AM" or "07:00": a time of any day (a wake time, a reminder window), as the locale writes it.
    public func time(of time: TimeOfDay) -> String {
        self.time(Date(timeIntervalSince1970: Double(time.minutes * 60)), in: .gmt)
    }

    /// "70.5", "70,5": a plain number (a weight) with the locale's decimal sign, up to two decimals.
    public func decimal(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(0...2)).locale(locale))
    }

    /// "0.92", "0,92": an exact number (a rate) as typed, with the locale's decimal sign and no grouping.
    public func exact(_ value: Decimal) -> String {
        value.formatted(.number.precision(.fractionLength(0...10)).grouping(.never).locale(locale))
    }

    /// "24 Nov 2026, 21:05": a moment further away (sessions, tokens, invites).
    public func moment(_ instant: Date, in zone: TimeZone) -> String {
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
    /// For a reader whose language is `chosen` (kept with their account) or else the first of
    /// their browser's Accept-Language that Tally speaks, else English; numbers and dates in
    /// the first locale of that language the browser names (so "de-CH" writes as in
    /// Switzerland), else the language's own.
    public init(chosen: Language? = nil, acceptLanguage header: String?) {
        let tags = Self.acceptedTags(header ?? "")
        let language = chosen ?? tags.lazy.compactMap(Language.matching).first ?? .english
        let regional = tags.lazy.map { $0.replacingOccurrences(of: "-", with: "_") }
            .first { Language.matching($0) == language && $0.contains("_") && Self.known.contains($0) }
        self.init(language: language, locale: regional.map(Locale.init(identifier:)))
    }

    /// The language tags of an Accept-Language header, the most wanted first: by their weight
    /// (q, 1 when none is given), then in the order given. A tag weighted 0 is not wanted at all,
    /// and one whose weight is no number from 0 to 1 (RFC 9110) counts as not sent.
    static func acceptedTags(_ header: String) -> [String] {
        let weighted = header.split(separator: ",").compactMap { item -> (tag: String, q: Double)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, (2...35).contains(tag.count),
                  tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                guard let value = Double(parameter.dropFirst(2)), (0...1).contains(value),
                      parameter.dropFirst(2).allSatisfy({ $0.isNumber || $0 == "." }) else { return nil }
                q = value
            }
            return q > 0 ? (tag, q) : nil
        }
        return weighted.enumerated().sorted { ($0.element.q, -$0.offset) > ($1.element.q, -$1.offset) }.map(\.element.tag)
    }

    /// The locales Foundation knows, read once (about 800).
    static let known = Set(Locale.availableIdentifiers)
}

extension Written {
    /// For a terminal: the language and locale of `LC_ALL`, else `LC_MESSAGES`, else `LANG`
    /// ("de_DE.UTF-8" is German as Germany writes it); English for "C", "POSIX", none, or a
    /// language Tally does not speak.
    public init(environment: [String: String]) {
        guard let (language, name) = Self.setting(environment) else {
            self.init(language: .english)
            return
        }
        let regional = name.contains("_") && Self.known.contains(name) ? Locale(identifier: name) : nil
        self.init(language: language, locale: regional)
    }

    /// The terminal's language as `init(environment:)` reads it, nil for English: without the
    /// `Locale`, which costs an English command a millisecond for nothing.
    public static func language(environment: [String: String]) -> Language? {
        setting(environment).map(\.language).flatMap { $0 == .english ? nil : $0 }
    }

    /// The language of the setting that counts, and its locale's name ("de_DE" of "de_DE.UTF-8").
    private static func setting(_ environment: [String: String]) -> (language: Language, name: String)? {
        let setting = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let name = String(setting.prefix { $0 != "." && $0 != "@" })
        guard name != "C", name != "POSIX", !name.isEmpty, let language = Language.matching(name) else { return nil }
        return (language, name)
    }
}
