import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: ReceiptRepository {
    public func keepReceipt(_ receipt: ReceiptFile?, of id: UUID, in ledger: UUID, by user: UUID, at: Date,
                            _ note: @escaping @Sendable (SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry {
        try await write { db in
            let details = try Self.details(ledger, of: user, db)
            guard let record = try SpendingEntryRecord.filter(sql: "id = ? AND ledgerId = ?", arguments: [id, ledger]).fetchOne(db) else {
                throw StoreRefusal.noLedgerEntry(id)
            }
            var entry = try Self.entry(record, in: details, db)
            let said = try note(entry, details)
            entry.receipt = receipt?.format
            if let receipt {
                try db.execute(sql: """
                    INSERT INTO entryReceipt (entryId, format, attachedAt, thumbnail, bytes) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (entryId) DO UPDATE SET format = excluded.format, attachedAt = excluded.attachedAt,
                        thumbnail = excluded.thumbnail, bytes = excluded.bytes
                    """, arguments: [id, receipt.format.rawValue, receipt.attachedAt, receipt.thumbnail, receipt.bytes])
            } else {
                try db.execute(sql: "DELETE FROM entryReceipt WHERE entryId = ?", arguments: [id])
            }
            try Self.log(said, ledger: ledger, user: user, at: at, db)
            return entry
        }
    }

    public func receipt(of id: UUID, in ledger: UUID, of user: UUID, thumbnail: Bool) async throws -> ReceiptFile? {
        try await read { db in
            _ = try Self.details(ledger, of: user, db)
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE id = ? AND ledgerId = ?)",
                                    arguments: [id, ledger]) == true else {
                throw StoreRefusal.noLedgerEntry(id)
            }
            // The photo's bytes are read only when asked for: a list wants the small copy.
            let bytes = thumbnail ? "NULL" : "bytes"
            guard let row = try Row.fetchOne(db, sql: "SELECT format, attachedAt, thumbnail, \(bytes) AS bytes FROM entryReceipt WHERE entryId = ?",
                                             arguments: [id]),
                  let format = ReceiptFormat(rawValue: row["format"]) else { return nil }
            return ReceiptFile(format: format, bytes: row["bytes"] ?? Data(), thumbnail: row["thumbnail"], attachedAt: row["attachedAt"])
        }
    }
}
