import CSV
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// A ledger written out (S6): JSON with everything needed to read it back, or CSV for a
/// spreadsheet, one row per expense or payment with each member's share in a column.
public enum LedgerExport {
    public enum Format: String, Sendable, CaseIterable {
        case csv, json
    }

    /// The JSON export: the ledger with its members, every entry (deleted ones marked) with its
    /// receipt's file, its recurring expenses, the summary at the time of export, and the
    /// activity log, newest first.
    public struct Document: Codable, Sendable {
        public var exportedAt: Date
        public var ledger: LedgerJSON
        public var entries: [Entry]
        /// None in an export made before recurring expenses were part of it.
        public var recurring: [RecurringExpenseJSON]
        public var summary: SummaryJSON
        public var activity: [ActivityJSON]
    }

    /// Lines of the activity log read at once.
    static let activityPage = 500

    /// The JSON export of a ledger: everything, deleted entries and their receipts too.
    public static func document(of ledger: UUID, spending: SpendingService) async throws -> Document {
        let summary = try await spending.summary(of: ledger)
        // The recurring expenses before the entries: an occurrence recorded between the two reads
        // is then in the entries, where a restore finds it, rather than lost between them.
        let recurring = try await spending.recurringExpenses(in: ledger)
        var entries: [Entry] = []
        for entry in try await spending.entries(in: ledger, .all) {
            entries.append(try await Entry(entry, in: ledger, spending: spending))
        }
        var activity: [ActivityJSON] = []
        while case let page = try await spending.activity(in: ledger, limit: activityPage, offset: activity.count), !page.isEmpty {
            activity += page.map(ActivityJSON.init)
            if page.count < activityPage { break }
        }
        return Document(exportedAt: spending.clock.now, ledger: LedgerJSON(summary.details, user: spending.user),
                        entries: entries, recurring: try recurring.map(RecurringExpenseJSON.init),
                        summary: SummaryJSON(summary), activity: activity)
    }

    public static func data(of ledger: UUID, format: Format, spending: SpendingService) async throws -> Data {
        switch format {
        case .json:
            let document = try await document(of: ledger, spending: spending)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            return try encoder.encode(document)
        case .csv:
            return try csv(try await spending.entries(in: ledger, .current), summary: try await spending.summary(of: ledger))
        }
    }

    /// "Alex", or "Alex 30.00; Sam 20.00" when several paid (in the ledger's currency).
    private static func paidBy(_ entry: SpendingEntry, _ summary: SpendingService.Summary) -> String {
        guard entry.hasSeveralPayers else { return summary.name(entry.payer) }
        return entry.payers.map { "\(summary.name($0.member)) \($0.amount.plain)" }.joined(separator: "; ")
    }

    static func csv(_ entries: [SpendingEntry], summary: SpendingService.Summary) throws -> Data {
        let members = summary.details.members
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream)
        try writer.write(row: ["date", "kind", "description", "category", "amount", "currency", "original amount", "original currency", "rate",
                               "paid by", "paid to", "split"]
                         + members.map { "share of \($0.name)" })
        for entry in entries {
            let shares = Dictionary(uniqueKeysWithValues: try entry.shares.map { ($0.member, $0.share.plain) })
            try writer.write(row: [
                entry.date.description, entry.kind.rawValue, SpreadsheetCell.safe(entry.description ?? ""),
                SpreadsheetCell.safe(entry.category ?? ""), entry.amount.plain, entry.amount.currency.code,
                entry.original?.amount.plain ?? "", entry.original?.amount.currency.code ?? "", entry.original?.rate.plain ?? "",
                SpreadsheetCell.safe(paidBy(entry, summary)), entry.recipient.map { SpreadsheetCell.safe(summary.name($0)) } ?? "",
                entry.split.method.rawValue,
            ] + members.map { shares[$0.id] ?? "" })
        }
        writer.stream.close()
        // The writer ends the last row without a line break; files and terminals want one.
        return (stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()) + Data("\n".utf8)
    }
}
