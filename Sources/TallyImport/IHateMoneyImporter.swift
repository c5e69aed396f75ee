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
    /// overrides the export's, and is needed when the export has none (IHateMoney's "XXX") or
    /// several. A bill in another currency than the ledger's keeps it and is converted at its
    /// rate in `rates`; an export with bills in a currency without one is refused. All or
    /// nothing, `batchSize` bills a transaction (`LedgerImport`).
    public func importBills(_ bills: [IHateMoneyBill], into ledger: UUID?, name: String, currency: String?,
                            rates: ImportRates = ImportRates()) async throws -> Report {
        let existing = try await ledger.asyncMap { try await spending.ledger($0) }
        let currency = try ledgerCurrency(bills, override: currency, existing: existing)
        let oldestFirst = Array(bills.reversed())
        let checked = try oldestFirst.enumerated().map { index, bill in
            try Checked(bill, row: bills.count - index, ledger: currency)
        }
        try rates.check(ImportCurrency.inOrder(checked.map(\.amount.currency)), ledger: currency)
        let weights = memberWeights(oldestFirst)
        let keyed = LedgerImport<Checked>.keyed(checked, prefix: "ihatemoney", content: \.key)
        let run = LedgerImport<Checked>(spending: spending, batchSize: batchSize, entry: { item, details, members, createdAt in
            try Self.entry(item, weights: weights, in: details, members: members, createdAt: createdAt,
                           convertedTo: rates.conversion(of: item.amount.currency, into: details.ledger.currency))
        }, refusal: { item, error in
            TallyError.invalid("Bill \(item.row) (\(UserText.quoted(item.bill.what))): \(error.phrase)")
        })
        return try await run.run(keyed, into: ledger, existing: existing, name: name, currency: currency, names: orderedNames(oldestFirst)) {
            Phrase(one: "Imported \($0) bill from IHateMoney.", other: "Imported \($0) bills from IHateMoney.")
        }
    }

    /// The entry for a bill: a payment for a Reimbursement to one member, otherwise an expense
    /// shared by the owers' weights (equally when they are all the same).
    private static func entry(_ item: Checked, weights: [String: Decimal], in details: LedgerDetails, members: MemberNames,
                              createdAt: Date, convertedTo ledgerCurrency: LedgerCurrency?) throws -> SpendingEntry {
        let bill = item.bill
        let payer = try members.member(named: bill.payerName).id
        if bill.isReimbursement, bill.owers.count == 1 {
            return try .payment(id: UUID(), from: payer, to: try members.member(named: bill.owers[0]).id,
                                amount: item.amount, date: bill.date, note: bill.what, createdAt: createdAt,
                                convertedTo: ledgerCurrency, members: details.members)
        }
        let owers = try bill.owers.map { try members.member(named: $0).id }
        let owerWeights = bill.owers.map { weights[UserText.comparisonKey($0)] ?? 1 }
        let split = Set(owerWeights).count == 1
            ? try Split.equal(owers)
            : try Split(method: .shares, parts: zip(owers, owerWeights).map { SplitPart(member: $0, value: $1) })
        return try SpendingEntry(id: UUID(), kind: .expense, amount: item.amount, payer: payer, date: bill.date,
                                 description: bill.what, category: nil, split: split, createdAt: createdAt,
                                 convertedTo: ledgerCurrency, members: details.members)
    }

    /// A bill whose amount and description passed the rules, with the content its key is made of.
    private struct Checked: Sendable {
        let bill: IHateMoneyBill
        let row: Int
        /// In the bill's own currency; in the ledger's for a bill that names none (IHateMoney's XXX).
        let amount: Money
        let key: String

        init(_ bill: IHateMoneyBill, row: Int, ledger: Currency) throws {
            self.row = row
            do {
                let code = bill.currency.trimmingCharacters(in: .whitespaces).uppercased()
                let own = code.isEmpty || code == "XXX" ? ledger : try Currency(code: code)
                amount = try Money(exactly: bill.amount, currency: own)
                try TransactionAmount.validate(amount, what: Phrase("The amount"))
                _ = try LedgerRules.validateDescription(bill.what)
            } catch let error as TallyError {
                throw TallyError.invalid("Bill \(row) (\(UserText.quoted(bill.what))): \(error.phrase)")
            }
            self.bill = bill
            key = [bill.isReimbursement ? "R" : "E", bill.date.description, amount.plain, bill.payerName.lowercased(),
                   bill.owers.map { $0.lowercased() }.sorted().joined(separator: ","), bill.what]
                .joined(separator: "\u{1F}")
        }
    }

    private func ledgerCurrency(_ bills: [IHateMoneyBill], override: String?, existing: LedgerDetails?) throws -> Currency {
        if let chosen = try ImportCurrency.chosen(override, existing: existing) { return chosen }
        let codes = Set(bills.map { $0.currency.uppercased() }).subtracting(["XXX", ""])
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
