import Foundation
import TallyCore

/// The receipts kept with expenses and payments: one per entry, in a table of their own so that
/// reading entries never reads their bytes. A deleted entry keeps its receipt; it goes with the
/// entry (or its ledger) when that is removed for good.
public protocol ReceiptRepository: Sendable {
    /// Keeps `receipt` as the entry's in place of any before it, or removes it (nil), and logs
    /// the note `note` makes from the entry as it was and its ledger, in one transaction. Not found when
    /// the user is not a member of the ledger or the entry is not in it. Returns the entry.
    func keepReceipt(_ receipt: ReceiptFile?, of entry: UUID, in ledger: UUID, by user: UUID, at: Date,
                     _ note: @escaping @Sendable (SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry
    /// The entry's receipt (with its small copy only when `thumbnail`, else with its bytes), nil
    /// when it has none; not found as for `entry(_:in:of:)`.
    func receipt(of entry: UUID, in ledger: UUID, of user: UUID, thumbnail: Bool) async throws -> ReceiptFile?
}
