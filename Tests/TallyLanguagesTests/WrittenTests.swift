import Foundation
import Testing
import TallyCore
@testable import TallyLanguages

/// How the web app writes amounts, volumes, days and times (Written): in the reader's locale,
/// on Foundation's formatters, never a number formatted by hand.
@Suite("Amounts and dates as people write them")
struct WrittenTests {
    let us = Written(language: .english, locale: Locale(identifier: "en_US"))
    let uk = Written(language: .english, locale: Locale(identifier: "en_GB"))
    let germany = Written(language: Language.matching("de")!, locale: Locale(identifier: "de_DE"))
    let nbsp = "\u{00A0}"

    private func money(_ units: Int64, _ code: String) throws -> Money {
        Money(minorUnits: units, currency: try Currency(code: code))
    }

    @Test("Money has its currency's symbol, grouping and decimals, and a true minus")
    func money() throws {
        #expect(us.money(try money(100_058_298, "USD")) == "$1,000,582.98")
        #expect(us.money(try money(123_456, "EUR")) == "€1,234.56")
        #expect(us.money(try money(1234, "JPY")) == "¥1,234")
        #expect(us.money(try money(-2533, "USD")) == "−$25.33")
        #expect(germany.money(try money(123_456, "EUR")) == "1.234,56\(nbsp)€")
        #expect(uk.money(try money(1250, "GBP")) == "£12.50")
    }

    @Test("Volumes: millilitres whole, ounces with a decimal where it matters, in the locale's decimal sign")
    func volumes() {
        #expect(us.volume(1250, .ml) == "1250 ml")
        #expect(us.volume(250, .ml) == "250 ml")
        #expect(us.volume(530.5, .ml) == "531 ml", "a half rounds away from zero, as everywhere else in Tally")
        #expect(us.volume(VolumeUnit.oz.toMilliliters(12.5), .oz) == "12.5 oz")
        #expect(us.volume(VolumeUnit.oz.toMilliliters(8), .oz) == "8 oz")
        #expect(germany.volume(VolumeUnit.oz.toMilliliters(12.5), .oz) == "12,5 oz")
    }

    @Test("An amount as the reader types it: the locale's decimal sign, the currency's decimals")
    func typedAmounts() throws {
        let euros = Money(minorUnits: 1250, currency: try Currency(code: "EUR"))
        #expect(us.amount(euros) == "12.50" && germany.amount(euros) == "12,50")
        #expect(us.amount(Money(minorUnits: 1250, currency: try Currency(code: "JPY"))) == "1,250")
    }

    @Test("Days: Today and Yesterday, then the weekday and date in the locale's order, the year when another")
    func days() {
        let today = LocalDate("2026-11-26")!
        #expect(us.day(today, today: today) == "Today")
        #expect(us.day(LocalDate("2026-11-25")!, today: today) == "Yesterday")
        #expect(uk.day(LocalDate("2026-11-24")!, today: today) == "Tue 24 Nov")
        #expect(us.day(LocalDate("2026-11-24")!, today: today) == "Tue, Nov 24")
        #expect(uk.day(LocalDate("2025-11-24")!, today: today) == "Mon, 24 Nov 2025")
        #expect(uk.longDay(LocalDate("2026-11-24")!) == "24 November 2026")
        #expect(us.longDay(LocalDate("2026-11-24")!) == "November 24, 2026")
    }

    @Test("Times in the person's zone, as their locale writes them")
    func times() {
        let instant = ISO8601DateFormatter().date(from: "2026-11-26T20:05:00Z")!
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(uk.time(instant, in: berlin) == "21:05")
        #expect(us.time(instant, in: berlin) == "9:05\(nbsp)PM")
        #expect(uk.moment(instant, in: berlin) == "26 Nov 2026 at 21:05")
        #expect(us.moment(instant, in: berlin) == "Nov 26, 2026 at 9:05\(nbsp)PM")
    }

    @Test("Times of day, weekdays, days of a month and months, as the locale writes them")
    func calendarNames() {
        let seven = TimeOfDay(hour: 7, minute: 5)!
        #expect(us.time(of: seven) == "7:05\(nbsp)AM")
        #expect(germany.time(of: TimeOfDay(hour: 23, minute: 0)!) == "23:00")
        let monday = LocalDate("2026-01-05")!
        #expect(us.weekday(monday) == "Mon" && germany.weekday(monday).hasPrefix("Mo"))
        #expect(us.weekdayHeading(monday) == "Mo" && germany.weekdayHeading(monday).hasPrefix("Mo"))
        #expect(us.dayOfMonth(LocalDate("2025-06-13")!) == "June 13" && germany.dayOfMonth(LocalDate("2025-06-13")!) == "13. Juni")
        #expect(us.month(YearMonth("2025-06")!) == "June 2025" && germany.month(YearMonth("2025-06")!) == "Juni 2025")
        #expect(us.shortMonth(YearMonth("2025-11")!) == "Nov")
        #expect(us.decimal(70.5) == "70.5" && germany.decimal(70.5) == "70,5" && us.decimal(70) == "70")
    }

    @Test("The locale comes from Accept-Language: its first known tag, English (US) otherwise")
    func acceptLanguage() {
        #expect(Written(acceptLanguage: "de-DE,de;q=0.9,en;q=0.8").locale.identifier == "de_DE")
        #expect(Written(acceptLanguage: "en-GB").languageTag == "en-GB")
        #expect(Written(acceptLanguage: nil).locale.identifier == "en_US")
        #expect(Written(acceptLanguage: "*").locale.identifier == "en_US")
        #expect(Written(acceptLanguage: "\"><script>, xx-\u{202E}").locale.identifier == "en_US")
    }
}
