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
    /// The member to become, by id or by name; with neither (and no `name`), the one member
    /// without an account, if there is exactly one.
    var member: MemberID?
    var memberName: String?
    /// Join as a new member with this name instead.
    var name: String?
}

struct NewOwner: Decodable {
    /// A member linked to an account.
    var member: MemberID
}

/// How long a new invite lasts and how many may join with it; the defaults when absent.
struct InviteRequest: Decodable {
    var days: Int?
    var uses: Int?
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
