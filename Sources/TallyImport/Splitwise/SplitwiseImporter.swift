import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Brings a Splitwise group's export (`SplitwiseExport`) into a ledger: a member for each
/// person's column (matched by name in a ledger that has them), and each row an expense whose
/// payers and exact split reproduce the row's effect on every balance, or a payment for a row
/// of category Payment. A row that moves nothing (a cost of 0, or every amount 0) is left out.
/// Every row carries an import key made from its content, so importing the same export again
/// adds nothing twice.
public struct SplitwiseImporter: Sendable {
    public let spending: SpendingService
    /// Rows stored per transaction.
    public var batchSize: Int

    public init(spending: SpendingService, batchSize: Int = IHateMoneyImporter.defaultBatchSize) {
        self.spending = spending
        self.batchSize = max(1, batchSize)
    }

    public typealias Report = IHateMoneyImportReport

    /// Imports into `ledger`, or into a new ledger called `name` when it is nil. The ledger's
    /// currency is `currency`, or the ledger's own, or the one most rows use (of two used as
    /// often, the first used). A row in another currency keeps it and is converted at its rate
    /// in `rates`; an export with rows in a currency without one is refused. All or nothing,
    /// `batchSize` rows a transaction (`LedgerImport`).
    public func importExport(_ export: SplitwiseExport, into ledger: UUID?, name: String, currency: String?,
                             rates: ImportRates = ImportRates()) async throws -> Report {
        let existing = try await ledger.asyncMap { try await spending.ledger($0) }
        let moving = export.rows.filter { !$0.cost.isZero && $0.effects.contains { !$0.isZero } }
        let currency = try Self.ledgerCurrency(moving.isEmpty ? export.rows : moving, override: currency, existing: existing)
        let checked = try moving.map { try Checked($0, people: export.people) }
        try rates.check(ImportCurrency.inOrder(moving.map(\.currency)), ledger: currency)
        let keyed = LedgerImport<Checked>.keyed(checked, prefix: "splitwise", content: \.key)
        let run = LedgerImport<Checked>(spending: spending, batchSize: batchSize, entry: { item, details, members, createdAt in
            try item.entry(in: details, members: members, createdAt: createdAt,
                           convertedTo: rates.conversion(of: item.row.currency, into: details.ledger.currency))
        }, refusal: { item, error in
            Checked.refusal(item.row, error.phrase)
        })
        return try await run.run(keyed, into: ledger, existing: existing, name: name, currency: currency, names: export.people,
                                 skipped: export.rows.count - moving.count) {
            Phrase(one: "Imported \($0) entry from Splitwise.", other: "Imported \($0) entries from Splitwise.")
        }
    }

    /// `override`, else the existing ledger's currency, else the one most `rows` use (ties: the
    /// first used).
    static func ledgerCurrency(_ rows: [SplitwiseExport.Row], override: String?, existing: LedgerDetails?) throws -> Currency {
        if let chosen = try ImportCurrency.chosen(override, existing: existing) { return chosen }
        var uses: [Currency: Int] = [:]
        for row in rows { uses[row.currency, default: 0] += 1 }
        let most = uses.values.max()
        guard let currency = ImportCurrency.inOrder(rows.map(\.currency)).first(where: { uses[$0] == most }) else {
            throw TallyError.invalid("This export has no expenses or payments, so it names no currency: choose the ledger's currency, such as EUR.", field: "currency")
        }
        return currency
    }

    /// A row whose description and category passed the rules, with the people's names and the
    /// content its key is made of.
    private struct Checked: Sendable {
        let row: SplitwiseExport.Row
        let people: [String]
        let description: String?
        let category: String?
        let key: String

        init(_ row: SplitwiseExport.Row, people: [String]) throws {
            self.row = row
            self.people = people
            do {
                description = try LedgerRules.validateDescription(row.description)
                category = row.isPayment ? nil : try LedgerRules.validateCategory(row.category)
            } catch let error as TallyError {
                throw Self.refusal(row, error.phrase)
            }
            let moved = zip(people, row.effects).filter { !$0.1.isZero }.map { "\($0.0.lowercased())=\($0.1.plain)" }.sorted()
            key = [row.isPayment ? "P" : "E", row.date.description, row.currency.code, row.cost.plain, moved.joined(separator: ","),
                   row.description].joined(separator: "\u{1F}")
        }

        /// The refusal of the file for `problem` with `row`, naming its line (and its description).
        static func refusal(_ row: SplitwiseExport.Row, _ problem: Phrase) -> TallyError {
            row.description.isEmpty ? TallyError.invalid("Line \(row.line): \(problem)")
                : TallyError.invalid("Line \(row.line) (\(UserText.quoted(row.description))): \(problem)")
        }

        /// The row as an entry of the ledger `details`: each person who paid a part of it a payer
        /// of that part, each person with a share in the exact split; a payment from the one who
        /// paid to the one whose share it is.
        func entry(in details: LedgerDetails, members found: MemberNames, createdAt: Date,
                   convertedTo ledgerCurrency: LedgerCurrency?) throws -> SpendingEntry {
            let members = try people.map { try found.member(named: $0).id }
            let payers = zip(members, row.paid).filter { !$0.1.isZero }.map { PayerPart(member: $0.0, amount: $0.1) }
            let shares = zip(members, row.shares).filter { !$0.1.isZero }
            if row.isPayment, let from = payers.first, let to = shares.first {
                return try .payment(id: UUID(), from: from.member, to: to.0, amount: row.cost, date: row.date, note: description,
                                    createdAt: createdAt, convertedTo: ledgerCurrency, members: details.members)
            }
            let split = try Split(method: .exact, parts: shares.map { SplitPart(member: $0.0, value: $0.1.decimal) })
            return try SpendingEntry(id: UUID(), kind: .expense, amount: row.cost, payers: payers, date: row.date,
                                     description: description, category: category, split: split, createdAt: createdAt,
                                     convertedTo: ledgerCurrency, members: details.members)
        }
    }
}
