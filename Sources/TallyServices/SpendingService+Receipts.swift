import Foundation
import TallyCore
import TallyRepositories

extension SpendingService {
    // MARK: - Receipts

    /// Keeps the file `upload` reads (a photo or a PDF, whatever it was said to be) as the entry's
    /// receipt, in place of the one before only once the new one is taken; the activity log says
    /// who did. Someone else's entry is not found before a byte of the file is read.
    public func attachReceipt(to id: UUID, in ledger: UUID, reading upload: () async throws -> Data) async throws -> SpendingEntry {
        try Self.writableEntry(try await entry(id, in: ledger))
        return try await keepReceipt(try await cleanedReceipt(try await upload()), of: id, in: ledger)
    }

    /// The receipt `bytes` make once they are made safe, refused when they are no photo or PDF:
    /// what a form checks before it adds the expense the receipt belongs to.
    public func cleanedReceipt(_ bytes: Data) async throws -> ReceiptFile {
        guard !bytes.isEmpty else { throw ReceiptUpload.empty }
        guard bytes.count <= ReceiptUpload.maximumBytes else { throw ReceiptUpload.tooBig }
        guard let kind = ReceiptUpload(sniffing: bytes) else { throw ReceiptUpload.notTaken }
        return try await ReceiptCleaning.cleaned(bytes, as: kind, at: clock.now)
    }

    /// Keeps a cleaned receipt as the entry's.
    public func keepReceipt(_ receipt: ReceiptFile, of id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        try await store.keepReceipt(receipt, of: id, in: ledger, by: user, at: clock.now) { entry, details in
            try Self.writableEntry(entry)
            return ActivityNote(Phrase("Attached a receipt to \(EntryWording(details).title(entry))."), entryID: id)
        }
    }

    /// Keeps a receipt a backup carried as the restored entry's, deleted or not (a deleted entry
    /// keeps its receipt too); the activity log says it came from the backup.
    public func restoreReceipt(_ receipt: ReceiptFile, of id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        try await store.keepReceipt(receipt, of: id, in: ledger, by: user, at: clock.now) { entry, details in
            ActivityNote(Phrase("Restored the receipt of \(EntryWording(details).title(entry)) from a backup."), entryID: id)
        }
    }

    /// Removes the entry's receipt; the activity log says who did.
    public func removeReceipt(of id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        try await store.keepReceipt(nil, of: id, in: ledger, by: user, at: clock.now) { entry, details in
            try Self.writableEntry(entry)
            guard entry.receipt != nil else { throw Self.noReceipt }
            return ActivityNote(Phrase("Removed the receipt of \(EntryWording(details).title(entry))."), entryID: id)
        }
    }

    /// The entry's receipt, or its small copy (none for a PDF).
    public func receipt(of id: UUID, in ledger: UUID, thumbnail: Bool = false) async throws -> ReceiptFile {
        guard let receipt = try await store.receipt(of: id, in: ledger, of: user, thumbnail: thumbnail),
              !thumbnail || receipt.thumbnail != nil else { throw Self.noReceipt }
        return receipt
    }

    private static let noReceipt = TallyError.notFound("This entry has no receipt.")

    /// A deleted entry keeps its receipt as it was, until it is restored.
    private static func writableEntry(_ entry: SpendingEntry) throws {
        guard entry.deletedAt == nil else {
            throw TallyError.conflict("This entry is deleted; restore it to change its receipt.")
        }
    }
}
