import Foundation
import TallyCore
import TallyStore

// The JSON the spending API reads and writes. Amounts go out as strings with exactly the
// currency's decimals ("12.50") and come in as strings or JSON numbers, which are decoded digit
// for digit, never through a float (S2).

/// An amount in a request: "12.50" or 12.50.
struct AmountValue: Decodable {
    var input: SpendingService.AmountInput

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            input = .text(text)
        } else if let number = try? container.decode(Decimal.self) {
            input = .decimal(number)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "must be an amount: a string such as \"12.50\" or a number"))
        }
    }
}

struct NewLedger: Decodable {
    var name: String
    var currency: String
    /// The members' names; "Person 1" and "Person 2" when absent. The first one is you.
    var members: [String]?
}

struct LedgerChange: Decodable {
    var name: String?
    var currency: String?
}

struct MemberName: Decodable {
    var name: String
}

struct JoinRequest: Decodable {
    var code: String
    /// The member to become; the first member without an account when absent.
    var member: MemberID?
    /// Join as a new member with this name instead.
    var name: String?
}

struct SplitBody: Decodable {
    var method: SplitMethod
    var parts: [Part]?

    struct Part: Decodable {
        var member: MemberID
        /// Share count, exact amount or percentage; absent for an equal split.
        var value: AmountValue?
    }

    var input: SpendingService.SplitInput {
        .init(method: method, parts: (parts ?? []).map { .init(member: .id($0.member), value: $0.value?.input) })
    }
}

struct NewExpense: Decodable {
    /// A client's id: sending the same expense again returns it instead of adding it twice.
    var id: UUID?
    var amount: AmountValue
    /// The member who paid; you when absent.
    var payer: MemberID?
    var date: LocalDate?
    var description: String?
    var category: String?
    var split: SplitBody?
}

struct NewPayment: Decodable {
    var id: UUID?
    /// Who paid; you when absent.
    var from: MemberID?
    var to: MemberID
    var amount: AmountValue
    var date: LocalDate?
    var note: String?
}

struct EntryChangeBody: Decodable {
    var amount: AmountValue?
    var payer: MemberID?
    var date: LocalDate?
    /// Absent: unchanged; null or "": cleared.
    var description: String??
    var category: String??
    var split: SplitBody?

    enum CodingKeys: String, CodingKey { case amount, payer, date, description, category, split }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        amount = try c.decodeIfPresent(AmountValue.self, forKey: .amount)
        payer = try c.decodeIfPresent(MemberID.self, forKey: .payer)
        date = try c.decodeIfPresent(LocalDate.self, forKey: .date)
        description = c.contains(.description) ? .some(try c.decodeIfPresent(String.self, forKey: .description)) : nil
        category = c.contains(.category) ? .some(try c.decodeIfPresent(String.self, forKey: .category)) : nil
        split = try c.decodeIfPresent(SplitBody.self, forKey: .split)
    }

    var change: SpendingService.EntryChange {
        .init(amount: amount?.input, payer: payer.map { .id($0) }, date: date,
              description: description.map { $0 ?? "" }, category: category.map { $0 ?? "" }, split: split?.input)
    }
}

// MARK: - Responses

struct MemberJSON: Encodable {
    var id: MemberID
    var name: String
    /// Whether an account is linked to this member.
    var linked: Bool
    var isYou: Bool
}

struct LedgerJSON: Encodable {
    var id: UUID
    var name: String
    var currency: String
    var createdAt: Date
    var members: [MemberJSON]
    /// The open invite's code; null when none is open.
    @ExplicitNull var inviteCode: String?

    init(_ details: LedgerDetails, user: UUID) {
        id = details.ledger.id
        name = details.ledger.name
        currency = details.ledger.currency.code
        createdAt = details.ledger.createdAt
        members = details.members.map { MemberJSON(id: $0.id, name: $0.name, linked: $0.userID != nil, isYou: $0.userID == user) }
        inviteCode = details.inviteCode
    }
}

struct LedgerList: Encodable {
    var items: [LedgerJSON]
}

struct SplitPartJSON: Encodable {
    var member: MemberID
    /// The share count, percentage or exact amount as given; "1" in an equal split.
    var value: String
    /// This member's share of the amount.
    var share: String
}

struct EntryJSON: Encodable {
    var id: UUID
    var kind: SpendingKind
    var amount: String
    var currency: String
    var payer: MemberID
    /// For a payment, who received it.
    @ExplicitNull var recipient: MemberID?
    var date: LocalDate
    @ExplicitNull var description: String?
    @ExplicitNull var category: String?
    var split: SplitMethod
    var parts: [SplitPartJSON]
    var createdAt: Date
    @ExplicitNull var deletedAt: Date?

    init(_ entry: SpendingEntry) throws {
        id = entry.id
        kind = entry.kind
        amount = entry.amount.plain
        currency = entry.amount.currency.code
        payer = entry.payer
        recipient = entry.recipient
        date = entry.date
        description = entry.description
        category = entry.category
        split = entry.split.method
        let shares = Dictionary(uniqueKeysWithValues: try entry.shares.map { ($0.member, $0.share) })
        parts = entry.split.parts.map { SplitPartJSON(member: $0.member, value: "\($0.value)", share: shares[$0.member]?.plain ?? "0") }
        createdAt = entry.createdAt
        deletedAt = entry.deletedAt
    }
}

struct EntryListJSON: Encodable {
    var items: [EntryJSON]
    @ExplicitNull var nextCursor: String?
}

struct BalanceJSON: Encodable {
    var member: MemberID
    var name: String
    var paid: String
    var share: String
    var sent: String
    var received: String
    /// Positive: the others owe this member; negative: this member owes.
    var balance: String
}

struct TransferJSON: Encodable {
    var from: MemberID
    var fromName: String
    var to: MemberID
    var toName: String
    var amount: String
}

struct SummaryJSON: Encodable {
    var currency: String
    var members: [BalanceJSON]
    /// The fewest payments that settle everything (S4).
    var plan: [TransferJSON]
    /// Who owes whom, in words.
    var sentences: [String]

    init(_ summary: SpendingService.Summary) {
        let currency = summary.balances.currency
        func money(_ units: Int64) -> String { Money(minorUnits: units, currency: currency).plain }
        let name = summary.name
        self.currency = currency.code
        members = summary.balances.members.map {
            BalanceJSON(member: $0.member, name: name($0.member), paid: money($0.paid), share: money($0.share),
                        sent: money($0.sent), received: money($0.received), balance: money($0.balance))
        }
        plan = summary.plan.map {
            TransferJSON(from: $0.from, fromName: name($0.from), to: $0.to, toName: name($0.to), amount: $0.amount.plain)
        }
        sentences = summary.sentences
    }
}

struct ActivityJSON: Encodable {
    var at: Date
    @ExplicitNull var actor: String?
    @ExplicitNull var entryId: UUID?
    var text: String
}

struct ActivityList: Encodable {
    var items: [ActivityJSON]
}
