import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension SpendingService {
    /// Who paid `amount`: the members of `several` what each says, or `one` all of it (the
    /// user's own member when neither is given).
    static func payers(one: MemberID?, several: [PayerBody]?, amount: Money, user: UUID,
                       in details: LedgerDetails) throws -> [PayerPart] {
        guard let several else {
            return [PayerPart(member: try TallyError.about("payer") { try payer(one, user: user, in: details) }, amount: amount)]
        }
        guard one == nil else { throw bothWays }
        return try parts(several, currency: amount.currency, in: details)
    }

    /// Who paid an edited entry: as the change says, or as before. An expense several members
    /// paid keeps its payers only while its amount stays; a new amount needs what each paid of it.
    static func payers(after change: EntryChangeBody, of entry: SpendingEntry, amount: Money,
                       in details: LedgerDetails) throws -> [PayerPart] {
        guard entry.kind == .expense || change.payers == nil else {
            throw TallyError.invalid("A payment is made by one member; record one payment for each member who pays.", field: "payers")
        }
        return try payers(one: change.payer, several: change.payers, before: entry.typedPayers, amount: amount,
                          amountBefore: entry.typedAmount, in: details)
    }

    /// Who pays once a change is made: one member or several as it says, or those `before`
    /// (several of them only while the amount stays what it was).
    static func payers(one: MemberID?, several: [PayerBody]?, before: [PayerPart], amount: Money, amountBefore: Money,
                       in details: LedgerDetails) throws -> [PayerPart] {
        if let several {
            guard one == nil else { throw bothWays }
            return try parts(several, currency: amount.currency, in: details)
        }
        if let one { return [PayerPart(member: try TallyError.about("payer") { try member(one, in: details.members) }, amount: amount)] }
        guard before.count > 1 else { return [PayerPart(member: before[0].member, amount: amount)] }
        guard amount == amountBefore else {
            throw TallyError.invalid("Several members pay this expense: say what each pays of \(amount.plain), or name one payer.", field: "payers")
        }
        return before
    }

    private static let bothWays = TallyError.invalid("Say who paid once: one payer, or several with what each paid, not both.", field: "payers")

    private static func parts(_ bodies: [PayerBody], currency: Currency, in details: LedgerDetails) throws -> [PayerPart] {
        try TallyError.about("payers") {
            guard !bodies.isEmpty else { throw TallyError.invalid("Give at least one payer with what they paid, or leave the payers out.") }
            return try bodies.map {
                PayerPart(member: try member($0.member, in: details.members),
                          amount: try $0.paid.money(in: currency, what: Phrase("What a payer paid"), field: "payers"))
            }
        }
    }
}
