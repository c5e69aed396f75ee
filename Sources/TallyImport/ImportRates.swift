import Foundation
import TallyCore

/// The rates an import converts entries in other currencies than the ledger's at: one per
/// currency, as given with the import (`--rate USD=0.92`, the API's `rate` query parameter, the
/// web form's Rates field), each how many of the ledger's currency one unit of it is worth.
public struct ImportRates: Sendable, Hashable {
    public private(set) var rates: [Currency: ExchangeRate]

    public init(_ rates: [Currency: ExchangeRate] = [:]) {
        self.rates = rates
    }

    /// Reads rates as people write them: `USD=0.92`, each text holding one or several
    /// (`USD=0.92, GBP=1.17`, or separated by semicolons, spaces or line breaks). A decimal comma
    /// stays one (`USD=0,92, GBP=1,17`): a comma ends a rate only before the next code.
    public init(parsing texts: [String]) throws {
        var rates: [Currency: ExchangeRate] = [:]
        for text in texts {
            for item in text.split(separator: Self.separator) {
                let item = item.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !item.isEmpty else { continue }
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw TallyError.invalid("\(UserText.quoted(item)) is not a rate such as USD=0.92: a currency's code, then = and how many of the ledger's currency one of it is worth.", field: "rate")
                }
                let currency: Currency
                do {
                    currency = try Currency(code: String(parts[0]))
                } catch let error as TallyError {
                    throw TallyError.invalid(error.phrase, field: "rate")
                }
                guard rates[currency] == nil else {
                    throw TallyError.invalid("The rate of \(currency.code) is given twice: give each currency's rate once.", field: "rate")
                }
                rates[currency] = try ExchangeRate(parsing: String(parts[1]))
            }
        }
        self.rates = rates
    }

    /// Between two rates: a semicolon or line break, a comma before the next code, or spaces
    /// before the next `CODE=`.
    nonisolated(unsafe) private static let separator = #/[;\n\r]|,(?=\s*[A-Za-z])|\s+(?=[A-Za-z]{3}\s*=)/#

    /// How an entry in `currency` goes into a ledger in `ledger`: nil for the ledger's own
    /// currency (and for one without a rate, which `check` refuses first).
    public func conversion(of currency: Currency, into ledger: Currency) -> LedgerCurrency? {
        guard currency != ledger, let rate = rates[currency] else { return nil }
        return LedgerCurrency(ledger, rate: rate)
    }

    /// Refuses, before anything is stored, an export with entries in currencies (other than the
    /// ledger's) that no rate is given for, naming them all. `currencies` in the order the
    /// export first uses them.
    public func check(_ currencies: [Currency], ledger: Currency) throws {
        let missing = currencies.filter { $0 != ledger && rates[$0] == nil }.map(\.code)
        guard let first = missing.first else { return }
        let named = missing.dropFirst().reduce(Phrase.verbatim(first)) { Phrase("\($0) and \($1)") }
        throw TallyError.invalid("This export has entries in \(named), and the ledger keeps \(ledger.code): give the rate of each to \(ledger.code), such as \(first)=0.92.", field: "rate")
    }
}
