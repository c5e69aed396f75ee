import Foundation
import GRDB
import TallyCore
import TallyRepositories

// A ledger's history as pages: the listing's order, the search's conditions, inside the
// caller's transaction.
extension SQLiteStore {
    /// A page of entries in the listing's order, after the entry `after`: a keyset on the
    /// history index, so that a page costs the same at the start of a ledger as deep inside it.
    static func entries(in details: LedgerDetails, _ listing: EntryListing, matching search: EntryFilter, limit: Int?, after: UUID?,
                        _ db: Database) throws -> [SpendingEntry] {
        let ledger = details.ledger.id
        // Same date and instant (an import): the later insert is the newer entry.
        let (filter, order, key) = switch listing {
        case .current: ("deletedAt IS NULL", "date DESC, createdAt DESC, rowid DESC", "date, createdAt, rowid")
        case .all: ("1", "date DESC, createdAt DESC, rowid DESC", "date, createdAt, rowid")
        case .deleted: ("deletedAt IS NOT NULL", "deletedAt DESC, rowid DESC", "deletedAt, rowid")
        }
        var arguments: StatementArguments = [ledger]
        let (matching, matchingArguments) = Self.conditions(search)
        arguments += matchingArguments
        var cursor = ""
        if let after {
            // Where the page before ended: the cursor entry's place in the listing's order.
            guard let place = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(key) FROM spendingEntry WHERE id = ? AND ledgerId = ?"),
                                               arguments: [after, ledger]) else {
                // A well-formed cursor that names nothing here: the page it points after is not found.
                throw StoreRefusal.noCursor(after)
            }
            cursor = "AND (\(key)) < (\(databaseQuestionMarks(count: place.count)))"
            arguments += StatementArguments(place.databaseValues)
        }
        arguments += [limit ?? -1]
        let page = "SELECT * FROM spendingEntry WHERE ledgerId = ? AND \(filter) \(matching) \(cursor) ORDER BY \(order) LIMIT ?"
        // Cached, as every statement of a ledger's page: preparing one ran GRDB's authorizer for
        // each column it reads, 6 % of the page (perf). A search's few shapes each have their own.
        let records = try SpendingEntryRecord.fetchAll(db.cachedStatement(sql: page), arguments: arguments)
        guard !records.isEmpty else { return [] }
        // The shares of the whole page in one query, however long the page.
        let shares = try SpendingShareRecord.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM spendingShare WHERE entryId IN (SELECT id FROM (\(page)))
            """), arguments: arguments)
        let payers = try SpendingPayerRecord.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM spendingPayer WHERE entryId IN (SELECT id FROM (\(page)))
            """), arguments: arguments)
        let (sharesByEntry, payersByEntry) = (Dictionary(grouping: shares, by: \.entryId), Dictionary(grouping: payers, by: \.entryId))
        let receipts = try receiptFormats(of: records.map(\.id), db)
        return try records.map {
            var entry = try $0.entry(currency: details.ledger.currency, shares: sharesByEntry[$0.id] ?? [], payers: payersByEntry[$0.id] ?? [],
                                     members: details.members)
            entry.receipt = receipts[$0.id]
            return entry
        }
    }

    /// A search's conditions on spendingEntry, each with its arguments ("" for none).
    static func conditions(_ search: EntryFilter) -> (sql: String, arguments: StatementArguments) {
        var sql = ""
        var arguments: StatementArguments = []
        if let words = search.words {
            sql += " AND instr(searchKey, ?) > 0"
            arguments += [words]
        }
        if let member = search.member {
            sql += """
                 AND (payerId = ? OR EXISTS (SELECT 1 FROM spendingShare WHERE entryId = spendingEntry.id AND memberId = ?)
                    OR EXISTS (SELECT 1 FROM spendingPayer WHERE entryId = spendingEntry.id AND memberId = ?))
                """
            arguments += [member, member, member]
        }
        if let category = search.category {
            sql += " AND category = ?"
            arguments += [category]
        }
        if let from = search.from {
            sql += " AND date >= ?"
            arguments += [from.number]
        }
        if let through = search.through {
            sql += " AND date <= ?"
            arguments += [through.number]
        }
        return (sql, arguments)
    }
}
