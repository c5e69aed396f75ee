import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

/// The currency and rate a body names, read before anything else: a body that cannot be read is
/// refused even when its id was sent before (the replay of an entry recorded already).
struct TypedCurrency {
    let code: Currency?
    let rate: ExchangeRate?

    init(code: String?, rate: AmountValue?) throws {
        self.code = try code.map { code in try TallyError.about("currency") { try Currency(code: code) } }
        self.rate = try rate.map { value in
            switch value {
            case .text(let text): try ExchangeRate(parsing: text)
            case .decimal(let decimal): try ExchangeRate(exactly: decimal)
            }
        }
    }

    /// Whether the ledger's last rates (and the reference ones) are needed: a currency without a rate.
    var needsKnownRates: Bool { code != nil && rate == nil }
}

/// The currency an entry is typed in, and how it turns into its ledger's (S2): the ledger's own
/// (no conversion), or another with the rate given or, when none is given, the last rate the
/// ledger used for it (else the day's reference rate).
struct EntryCurrency {
    let currency: Currency
    let conversion: LedgerCurrency?

    /// As `typed` says (no code: the ledger's currency, unless `current` says what an edited
    /// entry has), with `known` rates for a currency given without one.
    init(_ typed: TypedCurrency, ledger: Currency, current: Currency? = nil, known: KnownRates) throws {
        let currency = typed.code ?? current ?? ledger
        self.currency = currency
        guard currency != ledger else {
            guard typed.rate == nil || typed.rate?.value == 1 else {
                throw TallyError.invalid("A rate goes with an amount in another currency than the ledger's \(ledger.code): leave it out, or give the currency.", field: "rate")
            }
            self.conversion = nil
            return
        }
        guard let rate = typed.rate ?? known.rate(of: currency, in: ledger) else {
            throw TallyError.invalid("Give the rate of \(currency.code): how many \(ledger.code) one \(currency.code) is worth. This ledger has no rate for it yet.", field: "rate")
        }
        self.conversion = LedgerCurrency(ledger, rate: rate)
    }

    /// What `entry` is typed in now.
    init(_ entry: SpendingEntry) {
        currency = entry.typedAmount.currency
        conversion = entry.ledgerCurrency()
    }
}

extension SpendingService {
    /// The ledger's other currencies: what was spent in each and the rate it was last converted at.
    public func foreignSpending(in ledger: UUID) async throws -> [ForeignSpending] {
        try await store.foreignSpending(in: ledger, of: user)
    }

    /// The day's reference rates the server keeps, if it has a source.
    public func referenceRates() async throws -> ReferenceRates? {
        try await store.referenceRates()
    }

    /// The ledger's last rates, and the reference rates: read only when a body names a currency
    /// without a rate.
    func knownRates(in ledger: UUID, for typed: TypedCurrency) async throws -> KnownRates {
        guard typed.needsKnownRates else { return KnownRates() }
        return KnownRates(ledger: try await foreignSpending(in: ledger), reference: try await referenceRates())
    }
}

/// The rates an entry typed without one may take: the one its ledger last used for the
/// currency, else the day's reference rate.
public struct KnownRates: Sendable {
    public var ledger: [ForeignSpending] = []
    public var reference: ReferenceRates? = nil

    public init(ledger: [ForeignSpending] = [], reference: ReferenceRates? = nil) {
        self.ledger = ledger
        self.reference = reference
    }

    public func rate(of currency: Currency, in ledgerCurrency: Currency) -> ExchangeRate? {
        ledger.first { $0.spent.currency == currency }?.lastRate ?? reference?.rate(of: currency, in: ledgerCurrency)
    }

    /// Every rate known into `ledgerCurrency`, by code: the reference rates, then the ledger's own over them.
    public func all(in ledgerCurrency: Currency) -> [String: ExchangeRate] {
        var rates = reference?.rates(in: ledgerCurrency) ?? [:]
        for use in ledger { rates[use.spent.currency.code] = use.lastRate }
        return rates
    }
}
