import Foundation
import TallyCore

// The JSON shapes of ledgers, entries, summaries and the activity log: what the API sends, what
// the CLI prints with --json and reads back from a server. Amounts are strings with exactly the
// currency's decimals ("12.50"), never floats (S2).


public struct MemberJSON: Codable, Sendable {
    public var id: MemberID
    public var name: String
    /// Whether an account is linked to this member.
    public var linked: Bool
    public var isYou: Bool

    public init(id: MemberID, name: String, linked: Bool, isYou: Bool) {
        self.id = id
        self.name = name
        self.linked = linked
        self.isYou = isYou
    }
}

public struct LedgerJSON: Codable, Sendable {
    public var id: UUID
    public var name: String
    public var currency: String
    public var createdAt: Date
    public var members: [MemberJSON]
    /// The member who owns the ledger (S1); null only when nobody with an account is left.
    @ExplicitNull public var owner: MemberID?
    /// The open invite; null when none is open.
    @ExplicitNull public var invite: InviteJSON?
    /// The code of the invite this very request opened; null in every other answer, since only
    /// its hash is kept.
    @ExplicitNull public var inviteCode: String?

    public init(id: UUID, name: String, currency: String, createdAt: Date, members: [MemberJSON], owner: MemberID?,
                invite: InviteJSON?, inviteCode: String?) {
        self.id = id
        self.name = name
        self.currency = currency
        self.createdAt = createdAt
        self.members = members
        self.owner = owner
        self.invite = invite
        self.inviteCode = inviteCode
    }
}

/// What anyone in the ledger may know of its invite: not its code.
public struct InviteJSON: Codable, Sendable, Equatable {
    public var createdAt: Date
    /// After this instant the code opens nothing.
    public var expiresAt: Date
    /// How many more people may join with it; 0 when it is used up.
    public var usesLeft: Int

    public init(createdAt: Date, expiresAt: Date, usesLeft: Int) {
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usesLeft = usesLeft
    }
}

public struct LedgerList: Codable, Sendable {
    public var items: [LedgerJSON]

    public init(items: [LedgerJSON]) {
        self.items = items
    }
}

public struct SplitPartJSON: Codable, Sendable {
    public var member: MemberID
    /// The share count, percentage or exact amount as given; "1" in an equal split.
    public var value: String
    /// This member's share of the amount.
    public var share: String

    /// Each member's part of `split`, with their share of `amount`.
    static func parts(of split: Split, amount: Money) throws -> [SplitPartJSON] {
        try parts(of: split, shares: split.shares(of: amount))
    }

    /// Each member's part of `split`, with their share from `shares`.
    static func parts(of split: Split, shares: [(member: MemberID, share: Money)]) throws -> [SplitPartJSON] {
        let shares = Dictionary(uniqueKeysWithValues: shares.map { ($0.member, $0.share) })
        return split.parts.map { SplitPartJSON(member: $0.member, value: "\($0.value)", share: shares[$0.member]?.plain ?? "0") }
    }
}

/// What one member paid of an entry.
public struct PayerJSON: Codable, Sendable, Equatable {
    public var member: MemberID
    public var paid: String

    public init(member: MemberID, paid: String) {
        self.member = member
        self.paid = paid
    }
}

extension KeyedDecodingContainer {
    /// Entries written before an expense could have several payers have no `payers`: read as
    /// none, and their `payer` paid it all.
    public func decode(_ type: [PayerJSON].Type, forKey key: Key) throws -> [PayerJSON] {
        try decodeIfPresent(type, forKey: key) ?? []
    }
}

public struct EntryJSON: Codable, Sendable {
    public var id: UUID
    public var kind: SpendingKind
    public var amount: String
    public var currency: String
    /// Who paid it all, or the first (in member order) of several.
    public var payer: MemberID
    /// Everyone who paid and how much, in member order: one member the whole amount, or several.
    public var payers: [PayerJSON]
    /// For a payment, who received it.
    @ExplicitNull public var recipient: MemberID?
    public var date: LocalDate
    @ExplicitNull public var description: String?
    @ExplicitNull public var category: String?
    public var split: SplitMethod
    public var parts: [SplitPartJSON]
    public var createdAt: Date
    @ExplicitNull public var deletedAt: Date?
    /// The amount as typed in another currency than the ledger's, and its rate; `amount`,
    /// `payers` and the parts' shares are then what it came to in the ledger's currency, and an
    /// exact split's values are in `original.currency`.
    @ExplicitNull public var original: OriginalAmountJSON?
    /// The media type its receipt is kept as (`image/jpeg`, `image/png`, `application/pdf`), when
    /// it has one: `GET …/entries/{id}/receipt` gives it.
    @ExplicitNull public var receipt: ReceiptFormat?

    public init(_ entry: SpendingEntry) throws {
        id = entry.id
        kind = entry.kind
        amount = entry.amount.plain
        currency = entry.amount.currency.code
        payer = entry.payer
        payers = entry.payers.map { PayerJSON(member: $0.member, paid: $0.amount.plain) }
        recipient = entry.recipient
        date = entry.date
        description = entry.description
        category = entry.category
        split = entry.split.method
        parts = try SplitPartJSON.parts(of: entry.split, shares: entry.shares)
        createdAt = entry.createdAt
        deletedAt = entry.deletedAt
        original = entry.original.map { OriginalAmountJSON($0, payers: entry.hasSeveralPayers ? entry.typedPayers : []) }
        receipt = entry.receipt
    }
}

/// An entry's amount as it was typed, in another currency than its ledger's.
public struct OriginalAmountJSON: Codable, Sendable, Equatable {
    public var amount: String
    public var currency: String
    /// How many of the ledger's currency one unit of `currency` was worth.
    public var rate: String
    /// What each of several payers paid, as typed (none when one member paid it all).
    public var payers: [PayerJSON]

    public init(_ original: ForeignAmount, payers: [PayerPart]) {
        amount = original.amount.plain
        currency = original.amount.currency.code
        rate = original.rate.plain
        self.payers = payers.map { PayerJSON(member: $0.member, paid: $0.amount.plain) }
    }
}

public struct EntryListJSON: Codable, Sendable {
    public var items: [EntryJSON]
    @ExplicitNull public var nextCursor: String?

    public init(items: [EntryJSON], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

public struct BalanceJSON: Codable, Sendable {
    public var member: MemberID
    public var name: String
    public var paid: String
    public var share: String
    public var sent: String
    public var received: String
    /// Positive: the others owe this member; negative: this member owes.
    public var balance: String

    public init(member: MemberID, name: String, paid: String, share: String, sent: String, received: String, balance: String) {
        self.member = member
        self.name = name
        self.paid = paid
        self.share = share
        self.sent = sent
        self.received = received
        self.balance = balance
    }
}

public struct TransferJSON: Codable, Sendable {
    public var from: MemberID
    public var fromName: String
    public var to: MemberID
    public var toName: String
    public var amount: String

    public init(from: MemberID, fromName: String, to: MemberID, toName: String, amount: String) {
        self.from = from
        self.fromName = fromName
        self.to = to
        self.toName = toName
        self.amount = amount
    }
}

public struct SummaryJSON: Codable, Sendable {
    public var currency: String
    public var members: [BalanceJSON]
    /// The fewest payments that settle everything (S4).
    public var plan: [TransferJSON]
    /// Who owes whom, in words.
    public var sentences: [String]

    public init(currency: String, members: [BalanceJSON], plan: [TransferJSON], sentences: [String]) {
        self.currency = currency
        self.members = members
        self.plan = plan
        self.sentences = sentences
    }
}

public struct ActivityJSON: Codable, Sendable {
    public var at: Date
    @ExplicitNull public var actor: String?
    @ExplicitNull public var entryId: UUID?
    public var text: String

    public init(at: Date, actor: String?, entryId: UUID?, text: String) {
        self.at = at
        self.actor = actor
        self.entryId = entryId
        self.text = text
    }
}

public struct ActivityList: Codable, Sendable {
    public var items: [ActivityJSON]
    /// Pass as `cursor` for the next page; null on the last one.
    @ExplicitNull public var nextCursor: String?

    public init(items: [ActivityJSON], nextCursor: String? = nil) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// Another app's export (IHateMoney's, Splitwise's) brought into a ledger (S6).
public struct IHateMoneyImportReport: Codable, Equatable, Sendable {
    public var ledger: UUID
    public var added: Int
    /// Bills already in the ledger from an earlier import.
    public var alreadyThere: Int
    public var newMembers: [String]
    /// Rows that move nothing (a Splitwise row of cost 0, or whose amounts are all 0), left out.
    public var skipped: Int

    public init(ledger: UUID, added: Int, alreadyThere: Int, newMembers: [String], skipped: Int = 0) {
        self.ledger = ledger
        self.added = added
        self.alreadyThere = alreadyThere
        self.newMembers = newMembers
        self.skipped = skipped
    }
}
