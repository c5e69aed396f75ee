import Foundation

/// One day's reference rates, as a central bank publishes them (the ECB's euro foreign exchange
/// reference rates): how many units of each currency one euro buys. A rate between two other
/// currencies goes through the euro. Kept by the server when a source is configured, and offered
/// where a ledger has no rate of its own for a currency yet.
public struct ReferenceRates: Hashable, Sendable, Codable {
    /// The day the rates are of.
    public var date: LocalDate
    /// Units of each currency per euro, as exact decimal text ("1.0512" for USD); the euro is 1.
    public var perEuro: [String: String]

    public init(date: LocalDate, perEuro: [String: String]) {
        self.date = date
        self.perEuro = perEuro
    }

    /// How many of `ledger` one `currency` is worth, to six significant digits (the ECB publishes
    /// five or six); nil when either is not among the rates.
    public func rate(of currency: Currency, in ledger: Currency) -> ExchangeRate? {
        guard currency != ledger, let from = units(of: currency), let to = units(of: ledger), from > 0, to > 0 else { return nil }
        var exact = to / from
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, Self.decimals(for: exact), .plain)
        return try? ExchangeRate(exactly: rounded)
    }

    /// The rates of every currency they know into `ledger`, by code.
    public func rates(in ledger: Currency) -> [String: ExchangeRate] {
        var rates: [String: ExchangeRate] = [:]
        for code in perEuro.keys + ["EUR"] {
            if let currency = try? Currency(code: code), let rate = rate(of: currency, in: ledger) { rates[code] = rate }
        }
        return rates
    }

    private func units(of currency: Currency) -> Decimal? {
        currency.code == "EUR" ? 1 : perEuro[currency.code].flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    }

    /// The decimals that keep six significant digits of `value`, within what a rate may have.
    private static func decimals(for value: Decimal) -> Int {
        let magnitude = Int(floor(log10(NSDecimalNumber(decimal: value).doubleValue)))
        return min(ExchangeRate.maximumDecimals, max(0, 5 - magnitude))
    }
}
