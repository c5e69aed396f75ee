import Foundation
import TallyCore

// The bodies the spending routes read. Amounts come in as strings ("12.50") or JSON numbers,
// decoded digit for digit, never through a float (S2); this side sends strings.

/// An amount in a request: "12.50" or 12.50.
public enum AmountValue: Codable, Sendable, Hashable {
    case text(String)
    case decimal(Decimal)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else if let number = try? container.decode(Decimal.self) {
            self = .decimal(number)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "must be an amount: a string such as \"12.50\" or a number"))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .decimal(let number): try container.encode("\(number)")
        }
    }
}

public struct NewLedger: Codable, Sendable {
    public var name: String
    public var currency: String
    /// The members' names; "Person 1" and "Person 2" when absent. The first one is you.
    public var members: [String]?

    public init(name: String, currency: String, members: [String]?) {
        self.name = name
        self.currency = currency
        self.members = members
    }
}

public struct LedgerChange: Codable, Sendable {
    public var name: String?
    public var currency: String?

    public init(name: String?, currency: String?) {
        self.name = name
        self.currency = currency
    }
}

public struct MemberName: Codable, Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

public struct JoinRequest: Codable, Sendable {
    public var code: String
    /// The member to become, by id or by name; with neither (and no `name`), the one member
    /// without an account, if there is exactly one.
    public var member: MemberID?
    public var memberName: String?
    /// Join as a new member with this name instead.
    public var name: String?

    public init(code: String, member: MemberID? = nil, memberName: String? = nil, name: String? = nil) {
        self.code = code
        self.member = member
        self.memberName = memberName
        self.name = name
    }
}

public struct NewOwner: Codable, Sendable {
    /// A member linked to an account.
    public var member: MemberID

    public init(member: MemberID) {
        self.member = member
    }
}

/// How long a new invite lasts and how many may join with it; the defaults when absent.
public struct InviteRequest: Codable, Sendable, OptionalFields {
    public var days: Int?
    public var uses: Int?

    public init(days: Int?, uses: Int?) {
        self.days = days
        self.uses = uses
    }
}

public struct SplitBody: Codable, Sendable {
    public var method: SplitMethod
    public var parts: [Part]?

    public struct Part: Codable, Sendable {
        public var member: MemberID
        /// Share count, exact amount or percentage; absent for an equal split.
        public var value: AmountValue?

        public init(member: MemberID, value: AmountValue? = nil) {
            self.member = member
            self.value = value
        }
    }

    public init(method: SplitMethod = .equal, parts: [Part]? = nil) {
        self.method = method
        self.parts = parts
    }
}

/// One of several members who paid an expense, and how much.
public struct PayerBody: Codable, Sendable {
    public var member: MemberID
    public var paid: AmountValue

    public init(member: MemberID, paid: AmountValue) {
        self.member = member
        self.paid = paid
    }
}

public struct NewExpense: Codable, Sendable {
    /// A client's id: sending the same expense again returns it instead of adding it twice.
    public var id: UUID?
    public var amount: AmountValue
    /// The member who paid; you when absent and `payers` is too.
    public var payer: MemberID?
    /// Several members who paid, each their part, adding up to the amount; instead of `payer`.
    public var payers: [PayerBody]?
    public var date: LocalDate?
    public var description: String?
    public var category: String?
    public var split: SplitBody?
    /// The currency the amount, the payers' parts and an exact split are in, when it is not the ledger's.
    public var currency: String?
    /// How many of the ledger's currency one unit of `currency` is worth; the ledger's last rate
    /// for it when absent.
    public var rate: AmountValue?

    public init(id: UUID? = UUID(), amount: AmountValue, payer: MemberID? = nil, payers: [PayerBody]? = nil, date: LocalDate? = nil,
                description: String? = nil, category: String? = nil, split: SplitBody? = nil,
                currency: String? = nil, rate: AmountValue? = nil) {
        self.id = id
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.payer = payer
        self.payers = payers
        self.date = date
        self.description = description
        self.category = category
        self.split = split
    }
}

public struct NewPayment: Codable, Sendable {
    public var id: UUID?
    /// Who paid; you when absent.
    public var from: MemberID?
    public var to: MemberID
    public var amount: AmountValue
    public var date: LocalDate?
    public var note: String?
    /// As an expense's.
    public var currency: String?
    public var rate: AmountValue?

    public init(id: UUID? = UUID(), from: MemberID? = nil, to: MemberID, amount: AmountValue, date: LocalDate? = nil, note: String? = nil,
                currency: String? = nil, rate: AmountValue? = nil) {
        self.id = id
        self.currency = currency
        self.rate = rate
        self.from = from
        self.to = to
        self.amount = amount
        self.date = date
        self.note = note
    }
}

public struct EntryChangeBody: Codable, Sendable {
    public var amount: AmountValue?
    public var payer: MemberID?
    /// Several members who paid, each their part; instead of `payer`.
    public var payers: [PayerBody]?
    public var date: LocalDate?
    /// Left out: unchanged; null or "": cleared.
    public var description: Patch<String>
    public var category: Patch<String>
    public var split: SplitBody?
    /// Another currency for the amount as typed (the ledger's: none); its rate, or a new rate for
    /// the currency it has. Only this entry is converted again.
    public var currency: String?
    public var rate: AmountValue?

    public init(amount: AmountValue? = nil, payer: MemberID? = nil, payers: [PayerBody]? = nil, date: LocalDate? = nil,
                description: Patch<String> = .unchanged, category: Patch<String> = .unchanged, split: SplitBody? = nil,
                currency: String? = nil, rate: AmountValue? = nil) {
        self.amount = amount
        self.currency = currency
        self.rate = rate
        self.payer = payer
        self.payers = payers
        self.date = date
        self.description = description
        self.category = category
        self.split = split
    }
}
