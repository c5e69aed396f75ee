import Foundation

/// One line of a ledger's history: an expense or a payment, with each member's share worked out.
///
/// An entry may be typed in another currency than its ledger's (a trip abroad): then `original`
/// keeps the amount as typed and the rate, `amount` is that amount in the ledger's currency
/// (converted once, `ExchangeRate.convert`), and the balances count `amount`. The split and what
/// each of several payers paid stay as typed, in the entry's own currency, and share the
/// converted amount in the same proportions.
public struct SpendingEntry: Hashable, Sendable, Identifiable {
    public let id: UUID
    public var kind: SpendingKind
    /// In the ledger's currency.
    public private(set) var amount: Money
    /// The amount as typed and its rate, when it was typed in another currency than the ledger's.
    public private(set) var original: ForeignAmount?
    /// Who paid, in member order, in the ledger's currency: one member the whole amount, or
    /// several their parts.
    public private(set) var payers: [PayerPart]
    /// Who paid, as typed: in the entry's own currency.
    public private(set) var typedPayers: [PayerPart]
    public var date: LocalDate
    public var description: String?
    public var category: String?
    public var split: Split
    public var createdAt: Date
    public var deletedAt: Date?
    /// What its receipt is kept as, when it has one (the receipt itself is read on its own).
    public var receipt: ReceiptFormat?

    /// One member paid the whole amount.
    public init(id: UUID, kind: SpendingKind, amount: Money, payer: MemberID, date: LocalDate,
                description: String?, category: String?, split: Split, createdAt: Date,
                deletedAt: Date? = nil, convertedTo ledgerCurrency: LedgerCurrency? = nil, members: [LedgerMember]) throws {
        try self.init(id: id, kind: kind, amount: amount, payers: [PayerPart(member: payer, amount: amount)], date: date,
                      description: description, category: category, split: split, createdAt: createdAt,
                      deletedAt: deletedAt, convertedTo: ledgerCurrency, members: members)
    }

    /// Checks the amount, who paid, the split and that everyone named belongs to `members`.
    /// `amount`, `payers` and an exact split are in the entry's own currency; with
    /// `ledgerCurrency` (another currency and its rate) they are converted into it.
    public init(id: UUID, kind: SpendingKind, amount typed: Money, payers: [PayerPart], date: LocalDate,
                description: String?, category: String?, split: Split, createdAt: Date,
                deletedAt: Date? = nil, convertedTo ledgerCurrency: LedgerCurrency? = nil, members: [LedgerMember]) throws {
        try TransactionAmount.validate(typed, what: kind.subject)
        let typedPayers = try Payers.checked(payers, amount: typed, kind: kind, members: members)
        let known = Set(members.map(\.id))
        if let stranger = split.members.first(where: { !known.contains($0) }) {
            throw TallyError.invalid("Member \(stranger) is not in this ledger: split only among \(members.map(\.name).joined(separator: ", ")).")
        }
        if kind == .payment {
            guard split.members.count == 1, split.members[0] != typedPayers[0].member else {
                throw TallyError.invalid("A payment goes from one member to another member.")
            }
        }
        _ = try split.shares(of: typed)
        self.id = id
        self.kind = kind
        if let ledgerCurrency, ledgerCurrency.currency != typed.currency {
            let converted = try ledgerCurrency.convert(typed, what: kind.subject)
            self.amount = converted
            self.original = ForeignAmount(amount: typed, rate: ledgerCurrency.rate)
            self.payers = zip(typedPayers, Split.largestRemainder(converted.minorUnits, weights: typedPayers.map(\.amount.minorUnits)))
                .map { PayerPart(member: $0.member, amount: Money(minorUnits: $1, currency: converted.currency)) }
        } else {
            self.amount = typed
            self.original = nil
            self.payers = typedPayers
        }
        self.typedPayers = typedPayers
        self.date = date
        self.description = try LedgerRules.validateDescription(description)
        self.category = try LedgerRules.validateCategory(category)
        self.split = split
        self.createdAt = createdAt
        self.deletedAt = deletedAt
    }

    /// A payment of `amount` from `from` to `to`.
    public static func payment(id: UUID, from: MemberID, to: MemberID, amount: Money, date: LocalDate,
                               note: String?, createdAt: Date, convertedTo ledgerCurrency: LedgerCurrency? = nil,
                               members: [LedgerMember]) throws -> SpendingEntry {
        guard from != to else { throw TallyError.invalid("A payment goes from one member to another: pick two different members.") }
        let split = try Split(method: .exact, parts: [SplitPart(member: to, value: amount.decimal)])
        return try SpendingEntry(id: id, kind: .payment, amount: amount, payer: from, date: date, description: note,
                                 category: nil, split: split, createdAt: createdAt, convertedTo: ledgerCurrency, members: members)
    }

    /// The amount as typed: in its own currency.
    public var typedAmount: Money { original?.amount ?? amount }

    /// The ledger's currency and the rate this entry was converted at, to make it again with a change.
    public func ledgerCurrency(rate: ExchangeRate? = nil) -> LedgerCurrency? {
        guard let original else { return nil }
        return LedgerCurrency(amount.currency, rate: rate ?? original.rate)
    }

    /// Each member's share of the amount in the ledger's currency, adding up to it.
    public var shares: [(member: MemberID, share: Money)] {
        get throws { try split.shares(of: amount, typedAs: typedAmount) }
    }

    /// The one member who paid, or the first (in member order) of several.
    public var payer: MemberID { payers[0].member }

    /// Several members paid parts of it.
    public var hasSeveralPayers: Bool { payers.count > 1 }

    /// What `member` paid of it, in the ledger's currency: nothing, part or all.
    public func paid(by member: MemberID) -> Money {
        payers.first { $0.member == member }?.amount ?? Money(minorUnits: 0, currency: amount.currency)
    }

    /// For a payment, who received it.
    public var recipient: MemberID? { kind == .payment ? split.members.first : nil }
}

/// A ledger's currency, and the rate at which an entry typed in another currency turns into it.
public struct LedgerCurrency: Hashable, Sendable {
    public let currency: Currency
    public let rate: ExchangeRate

    public init(_ currency: Currency, rate: ExchangeRate) {
        self.currency = currency
        self.rate = rate
    }

    /// `typed` in the ledger's currency, refused when the rate makes it nothing or too much.
    func convert(_ typed: Money, what: Phrase) throws -> Money {
        let converted = rate.convert(typed, to: currency)
        guard converted.minorUnits > 0 else {
            throw TallyError.invalid("\(typed) at a rate of \(rate.plain) is less than \(Money(minorUnits: 1, currency: currency)): check the rate.", field: "rate")
        }
        guard converted.minorUnits <= TransactionAmount.maximumUnits * currency.scale else {
            throw TallyError.invalid("\(what) can be at most \(Money(minorUnits: TransactionAmount.maximumUnits * currency.scale, currency: currency)); \(typed) at a rate of \(rate.plain) is \(converted).", field: "rate")
        }
        return converted
    }
}
