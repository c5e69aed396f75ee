import Foundation
import TallyAPI
import TallyCore

/// What `tally expenses receipt` says, in the terminal's language.
enum ReceiptText {
    /// "Attached a receipt to Groceries 30.00 EUR, paid by Alex, split equally.", as the log says it.
    static func attached(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        t("Attached a receipt to \(SpendingText.line(entry, ledger)).")
    }

    static func removed(_ entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        t("Removed the receipt of \(SpendingText.line(entry, ledger)).")
    }

    /// "Receipt of Groceries 30.00 EUR, …: image/jpeg, 182 KB." and how to save it, or that the
    /// entry has none and how to attach one.
    static func kept(_ receipt: KeptReceipt?, with entry: EntryJSON, _ ledger: LedgerJSON) -> String {
        let (line, short) = (SpendingText.line(entry, ledger), entry.id.uuidString.prefix(8).lowercased())
        guard let receipt else {
            return t("No receipt is kept with \(line).") + "\n" + t("Attach one with: tally expenses receipt \(short) FILE")
        }
        return t("Receipt of \(line): \(receipt.format.mediaType), \(size(receipt)).") + "\n"
            + t("Save it with: tally expenses receipt \(short) --save FILE")
    }

    static func saved(_ receipt: KeptReceipt, to path: String) -> String {
        t("Saved the receipt (\(receipt.format.mediaType), \(size(receipt))) to \(path).")
    }

    /// "182 KB", as `tally backup` writes a size.
    private static func size(_ receipt: KeptReceipt) -> String {
        ByteCountFormatter.string(fromByteCount: Int64(receipt.bytes.count), countStyle: .file)
    }
}
