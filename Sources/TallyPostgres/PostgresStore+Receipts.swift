import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: ReceiptRepository {
    public func keepReceipt(_ receipt: ReceiptFile?, of id: UUID, in ledger: UUID, by user: UUID, at: Date,
                            _ note: @escaping @Sendable (SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await self.details(ledger, of: user, connection)
            var entry = try await self.entry(id, in: details, connection)
            let said = try note(entry, details)
            entry.receipt = receipt?.format
            if let receipt {
                try await connection.run("""
                    INSERT INTO entryReceipt (entryId, format, attachedAt, thumbnail, bytes)
                    VALUES (\(id), \(receipt.format.rawValue), \(receipt.attachedAt), \(receipt.thumbnail.map(ByteBuffer.init(data:))),
                        \(ByteBuffer(data: receipt.bytes)))
                    ON CONFLICT (entryId) DO UPDATE SET format = excluded.format, attachedAt = excluded.attachedAt,
                        thumbnail = excluded.thumbnail, bytes = excluded.bytes
                    """, logger: logger)
            } else {
                try await connection.run("DELETE FROM entryReceipt WHERE entryId = \(id)", logger: logger)
            }
            try await log(said, ledger: ledger, user: user, at: at, connection)
            return entry
        }
    }

    public func receipt(of id: UUID, in ledger: UUID, of user: UUID, thumbnail: Bool) async throws -> ReceiptFile? {
        try await read { [self] connection in
            _ = try await details(ledger, of: user, connection)
            guard try await connection.row("SELECT 1 FROM spendingEntry WHERE id = \(id) AND ledgerId = \(ledger)", logger: logger) != nil else {
                throw StoreRefusal.noLedgerEntry(id)
            }
            // The photo's bytes are read only when asked for: a list wants the small copy.
            guard let row = try await connection.row("""
                SELECT format, attachedAt, thumbnail, CASE WHEN \(thumbnail) THEN NULL ELSE bytes END FROM entryReceipt WHERE entryId = \(id)
                """, logger: logger) else { return nil }
            let (format, attachedAt, small, bytes) = try row.decode((String, Date, ByteBuffer?, ByteBuffer?).self)
            guard let format = ReceiptFormat(rawValue: format) else { return nil }
            return ReceiptFile(format: format, bytes: bytes.map { Data(buffer: $0) } ?? Data(),
                               thumbnail: small.map { Data(buffer: $0) }, attachedAt: attachedAt)
        }
    }
}
