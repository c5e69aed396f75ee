import Foundation

/// A member who paid an expense, and how much of it (S2).
public struct PayerPart: Hashable, Sendable {
    public let member: MemberID
    public let amount: Money

    public init(member: MemberID, amount: Money) {
        self.member = member
        self.amount = amount
    }
}

/// Who paid an expense: one member the whole amount, or several members parts that add up to it
/// (two people paid one dinner). A payment always has one payer.
public enum Payers {
    /// The parts in member order, checked: each member of the ledger, once, paying more than
    /// nothing, the parts adding up to `amount` exactly.
    public static func checked(_ parts: [PayerPart], amount: Money, kind: SpendingKind,
                               members: [LedgerMember]) throws -> [PayerPart] {
        guard !parts.isEmpty else { throw TallyError.invalid("Say who paid: at least one member.", field: "payers") }
        let known = Set(members.map(\.id))
        guard parts.allSatisfy({ known.contains($0.member) }) else {
            throw TallyError.invalid("The payer is not a member of this ledger: pick one of \(members.map(\.name).joined(separator: ", ")).", field: "payers")
        }
        guard Set(parts.map(\.member)).count == parts.count else {
            throw TallyError.invalid("The payers name a member twice: list each member once.", field: "payers")
        }
        guard kind == .expense || parts.count == 1 else {
            throw TallyError.invalid("A payment is made by one member; record one payment for each member who pays.", field: "payers")
        }
        guard parts.allSatisfy({ $0.amount.minorUnits > 0 && $0.amount.currency == amount.currency }) else {
            throw TallyError.invalid("Each payer's part must be more than 0 in \(amount.currency.code): leave out a member who paid nothing.", field: "payers")
        }
        let total = parts.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        guard total == amount.minorUnits else {
            let sum = Money(minorUnits: total, currency: amount.currency)
            throw TallyError.invalid("What the payers paid adds up to \(sum.plain), not \(amount.plain): change it by \((amount - sum).plain) so it matches the expense.", field: "payers")
        }
        return parts.sorted { $0.member < $1.member }
    }
}
