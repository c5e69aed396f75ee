import Foundation
import TallyAPI
import TallyCore
import TallyStore

/// Brings an IHateMoney project's bills into a ledger (S6): members are matched or created by
/// name, a Reimbursement becomes a payment, and each bill is shared by the owers' weights as
/// IHateMoney does. Every bill carries an import key made from its content, so importing the same
/// export again (as JSON or as CSV) adds nothing twice.
public struct IHateMoneyImporter: Sendable {
    public let spending: SpendingService

    public init(spending: SpendingService) {
        self.spending = spending
    }

    public typealias Report = IHateMoneyImportReport

    /// Imports into `ledger`, or into a new ledger called `name` when it is nil. `currency`
    /// overrides the export's, and is needed when the export has none (IHateMoney's "XXX").
    /// All or nothing: a bill the rules refuse leaves the ledgers as they were.
    public func importBills(_ bills: [IHateMoneyBill], into ledger: UUID?, name: String, currency: String?) async throws -> Report {
        let currency = try ledgerCurrency(bills, override: currency, existing: try await ledger.asyncMap { try await spending.ledger($0) })
        let oldestFirst = Array(bills.reversed())
        let checked = try oldestFirst.enumerated().map { index, bill in
            try Checked(bill, row: bills.count - index, currency: currency)
        }
        let weights = memberWeights(oldestFirst)
        let (user, now) = (spending.user, spending.clock.now)
        let result = try await spending.importEntries(
            into: ledger, name: name, currency: currency, memberNames: orderedNames(oldestFirst),
            note: "Imported \(bills.count) bill\(bills.count == 1 ? "" : "s") from IHateMoney."
        ) { details in
            var seen: [String: Int] = [:]
            return try checked.map { item in
                seen[item.key, default: 0] += 1
                do {
                    let entry = try Self.entry(item, weights: weights, in: details, createdAt: now, user: user)
                    return ImportedEntry(entry: entry, importKey: "ihatemoney:\(item.key)#\(seen[item.key]!)")
                } catch let error as TallyError {
                    throw TallyError.invalid("Bill \(item.row) (\(item.bill.what)): \(error.message)")
                }
            }
        }
        return Report(ledger: result.details.ledger.id, added: result.added, alreadyThere: checked.count - result.added,
                      newMembers: result.newMembers)
    }

    /// The entry for a bill: a payment for a Reimbursement to one member, otherwise an expense
    /// shared by the owers' weights (equally when they are all the same).
    private static func entry(_ item: Checked, weights: [String: Decimal], in details: LedgerDetails,
                              createdAt: Date, user: UUID) throws -> SpendingEntry {
        let bill = item.bill
        let payer = try LedgerRules.member(named: bill.payerName, in: details.members).id
        if bill.isReimbursement, bill.owers.count == 1 {
            return try .payment(id: UUID(), from: payer, to: try LedgerRules.member(named: bill.owers[0], in: details.members).id,
                                amount: item.amount, date: bill.date, note: bill.what, createdAt: createdAt, members: details.members)
        }
        let owers = try bill.owers.map { try LedgerRules.member(named: $0, in: details.members).id }
        let owerWeights = bill.owers.map { weights[UserText.comparisonKey($0)] ?? 1 }
        let split = Set(owerWeights).count == 1
            ? try Split.equal(owers)
            : try Split(method: .shares, parts: zip(owers, owerWeights).map { SplitPart(member: $0, value: $1) })
        return try SpendingEntry(id: UUID(), kind: .expense, amount: item.amount, payer: payer, date: bill.date,
                                 description: bill.what, category: nil, split: split, createdAt: createdAt, members: details.members)
    }

    /// A bill whose amount and description passed the rules, with the content its key is made of.
    private struct Checked: Sendable {
        let bill: IHateMoneyBill
        let row: Int
        let amount: Money
        let key: String

        init(_ bill: IHateMoneyBill, row: Int, currency: Currency) throws {
            self.row = row
            do {
                amount = try Money(exactly: bill.amount, currency: currency)
                try TransactionAmount.validate(amount, what: "The amount")
                _ = try LedgerRules.validateDescription(bill.what)
            } catch let error as TallyError {
                throw TallyError.invalid("Bill \(row) (\(bill.what)): \(error.message)")
            }
            self.bill = bill
            key = [bill.isReimbursement ? "R" : "E", bill.date.description, amount.plain, bill.payerName.lowercased(),
                   bill.owers.map { $0.lowercased() }.sorted().joined(separator: ","), bill.what]
                .joined(separator: "\u{1F}")
        }
    }

    private func ledgerCurrency(_ bills: [IHateMoneyBill], override: String?, existing: LedgerDetails?) throws -> Currency {
        let codes = Set(bills.map { $0.currency.uppercased() }).subtracting(["XXX", ""])
        if let override { return try Currency(code: override) }
        if let existing {
            if let other = codes.first(where: { $0 != existing.ledger.currency.code }) {
                throw TallyError.invalid("This export has bills in \(other), but the ledger keeps \(existing.ledger.currency.code).")
            }
            return existing.ledger.currency
        }
        guard codes.count <= 1 else {
            throw TallyError.invalid("This export has bills in \(codes.sorted().joined(separator: " and ")); a ledger keeps one currency: import it with --currency to choose one.")
        }
        guard let code = codes.first else {
            throw TallyError.invalid("This export names no currency (IHateMoney's XXX): choose the ledger's currency with --currency, such as --currency EUR.")
        }
        return try Currency(code: code)
    }

    /// Members in the order they first appear, oldest bill first; names that differ only by
    /// case or composition are one member, as in the ledger.
    private func orderedNames(_ bills: [IHateMoneyBill]) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        for bill in bills {
            for name in [bill.payerName] + bill.owers where seen.insert(UserText.comparisonKey(name)).inserted {
                names.append(name)
            }
        }
        return names
    }

    /// IHateMoney's weights: a member's `payer_weight`, and 1 for members who never pay (the
    /// export does not say theirs).
    private func memberWeights(_ bills: [IHateMoneyBill]) -> [String: Decimal] {
        var weights: [String: Decimal] = [:]
        for bill in bills { weights[UserText.comparisonKey(bill.payerName)] = bill.payerWeight }
        return weights
    }
}
