import Foundation
import TallyAPI
import TallyCore

// The API's spending bodies as the service reads them: an amount in the ledger's currency, a
// split and payers among its members, each checked by the core's rules with the field it is about.

extension AmountValue {
    /// The amount in `currency`, checked; a refusal names `field`.
    func money(in currency: Currency, what: Phrase, field: String = "amount") throws -> Money {
        let money = try TallyError.about(field) {
            switch self {
            case .text(let text): try Money(parsing: text, currency: currency)
            case .decimal(let decimal): try Money(exactly: decimal, currency: currency)
            }
        }
        try TransactionAmount.validate(money, what: what, field: field)
        return money
    }
}

extension Decimal {
    /// An amount kept as it was typed, read again in `currency` (an entry whose currency changes).
    func money(in currency: Currency, what: Phrase) throws -> Money {
        try AmountValue.decimal(self).money(in: currency, what: what)
    }
}

extension SplitBody {
    /// The split among `members`, its values checked; no parts means everyone, for an equal split.
    func split(among members: [LedgerMember]) throws -> Split {
        try TallyError.about("split") {
            let parts = self.parts ?? []
            if parts.isEmpty {
                guard method == .equal else { throw TallyError.invalid(method.valueMissing) }
                return try .equal(members.map(\.id))
            }
            return try Split(method: method, parts: parts.map { part in
                let id = try SpendingService.member(part.member, in: members)
                guard method != .equal else { return SplitPart(member: id) }
                let value: Decimal = switch part.value {
                case .decimal(let decimal): decimal
                case .text(let text): try Self.number(text, method: method)
                case nil: throw TallyError.invalid(method.valueMissing)
                }
                return SplitPart(member: id, value: value)
            })
        }
    }

    /// A share count, percentage or exact amount as typed: digits and one decimal point or comma.
    static func number(_ text: String, method: SplitMethod) throws -> Decimal {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard !trimmed.isEmpty, trimmed.filter({ $0 == "." }).count <= 1,
              trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        else {
            throw TallyError.invalid(method.notANumber(text))
        }
        return value
    }
}

extension Optional where Wrapped == SplitBody {
    /// An expense's split: everyone equally when the body gives none.
    func split(among members: [LedgerMember]) throws -> Split {
        try (self ?? SplitBody(method: .equal, parts: nil)).split(among: members)
    }
}

extension SpendingService {
    /// The member `id`, when the ledger has one.
    static func member(_ id: MemberID, in members: [LedgerMember]) throws -> MemberID {
        guard members.contains(where: { $0.id == id }) else {
            throw TallyError.invalid("Member \(id) is not in this ledger: use one of \(members.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")).")
        }
        return id
    }
}

extension SplitMethod {
    /// The refusal for a split that leaves out a member's value (a share count, an amount, a
    /// percentage). An equal split has no values, so it is never refused for one.
    var valueMissing: Phrase {
        switch self {
        case .equal, .shares: Phrase("A split by shares needs each member's share count.")
        case .exact: Phrase("A split by exact needs each member's amount.")
        case .percent: Phrase("A split by percent needs each member's percentage.")
        }
    }

    /// The refusal for a member's value typed as `text`, which is not a number.
    func notANumber(_ text: String) -> Phrase {
        switch self {
        case .equal, .shares: Phrase("\"\(text)\" is not a number: write the share count with digits, such as 2 or 12.50.")
        case .exact: Phrase("\"\(text)\" is not a number: write the amount with digits, such as 2 or 12.50.")
        case .percent: Phrase("\"\(text)\" is not a number: write the percentage with digits, such as 2 or 12.50.")
        }
    }
}
