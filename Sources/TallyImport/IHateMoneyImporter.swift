import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Brings an IHateMoney project's bills into a ledger (S6): members are matched or created by
/// name, a Reimbursement becomes a payment, and each bill is shared by the owers' weights as
/// IHateMoney does. Every bill carries an import key made from its content, so importing the same
/// export again (as JSON or as CSV) adds nothing twice.
public struct IHateMoneyImporter: Sendable {
    public let spending: SpendingService
    /// Bills stored per transaction.
    public var batchSize: Int

    public static let defaultBatchSize = 2_000

    public init(spending: SpendingService, batchSize: Int = defaultBatchSize) {
        self.spending = spending
        self.batchSize = max(1, batchSize)
    }

    public typealias Report = IHateMoneyImportReport

    /// Imports into `ledger`, or into a new ledger called `name` when it is nil. `currency`
    /// overrides the export's, and is needed when the export has none (IHateMoney's "XXX").
    /// Every bill is checked against the ledger as it will be before anything is stored, so a
    /// bill the rules refuse leaves the ledgers as they were; the bills then go in `batchSize`
    /// at a time, so that a long export never holds other people's writes for long, and
    /// importing it again finishes an import that stopped halfway, adding nothing twice.
    public func importBills(_ bills: [IHateMoneyBill], into ledger: UUID?, name: String, currency: String?) async throws -> Report {
        let existing = try await ledger.asyncMap { try await spending.ledger($0) }
        let currency = try ledgerCurrency(bills, override: currency, existing: existing)
        let oldestFirst = Array(bills.reversed())
        let checked = try oldestFirst.enumerated().map { index, bill in
            try Checked(bill, row: bills.count - index, currency: currency)
        }
        let weights = memberWeights(oldestFirst)
        let names = orderedNames(oldestFirst)
        let (user, now) = (spending.user, spending.clock.now)
        var seen: [String: Int] = [:]
        let keyed = checked.map { item in
            seen[item.key, default: 0] += 1
            return (item: item, key: "ihatemoney:\(item.key)#\(seen[item.key]!)")
        }
        _ = try Self.entries(keyed[...], weights: weights,
                             in: Self.preview(of: existing, name: name, currency: currency, names: names, user: user, now: now),
                             createdAt: now, user: user)
        var target = ledger
        var added = 0
        var newMembers: [String] = []
        for run in keyed.isEmpty ? [keyed[...]] : DayBatches.runs(keyed, size: batchSize) {
            let stored = try await spending.importEntries(
                into: target, name: name, currency: currency, memberNames: names,
                note: Phrase(one: "Imported \(run.count) bill from IHateMoney.", other: "Imported \(run.count) bills from IHateMoney.")
            ) { details in
                try Self.entries(run, weights: weights, in: details, createdAt: now, user: user)
            }
            target = stored.details.ledger.id
            added += stored.added
            newMembers += stored.newMembers
        }
        // The loop runs at least once, so the ledger is the one it wrote to.
        return Report(ledger: target!, added: added, alreadyThere: checked.count - added, newMembers: newMembers)
    }

    /// The entries of some bills, each with its import key; a refusal names its bill.
    private static func entries(_ bills: ArraySlice<(item: Checked, key: String)>, weights: [String: Decimal], in details: LedgerDetails,
                                createdAt: Date, user: UUID) throws -> [ImportedEntry] {
        try bills.map { bill in
            do {
                return ImportedEntry(entry: try entry(bill.item, weights: weights, in: details, createdAt: createdAt, user: user),
                                     importKey: bill.key)
            } catch let error as TallyError {
                throw TallyError.invalid("Bill \(bill.item.row) (\(bill.item.bill.what)): \(error.message)")
            }
        }
    }

    /// The ledger as the import will make it, to check every bill against before storing any:
    /// its members and, for those still to come, ids of their own.
    private static func preview(of existing: LedgerDetails?, name: String, currency: Currency, names: [String], user: UUID,
                                now: Date) -> LedgerDetails {
        var members = existing?.members ?? []
        var next = (members.map(\.id).max() ?? 0) + 1
        for name in names where !members.contains(where: { UserText.sameName($0.name, name) }) {
            members.append(LedgerMember(id: next, name: name.trimmingCharacters(in: .whitespaces), userID: existing == nil && members.isEmpty ? user : nil))
            next += 1
        }
        return LedgerDetails(ledger: existing?.ledger ?? Ledger(id: UUID(), name: name, currency: currency, createdAt: now),
                             members: members, ownerID: nil, invite: nil, hasEntries: false)
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
                try TransactionAmount.validate(amount, what: Phrase("The amount"))
                _ = try LedgerRules.validateDescription(bill.what)
            } catch let error as TallyError {
                throw TallyError.invalid("Bill \(row) (\(bill.what)): \(error.phrase)")
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
            let sorted = codes.sorted()
            let named = sorted.dropFirst().reduce(Phrase.verbatim(sorted[0])) { Phrase("\($0) and \($1)") }
            throw TallyError.invalid("This export has bills in \(named); a ledger keeps one currency: import it with --currency to choose one.")
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
