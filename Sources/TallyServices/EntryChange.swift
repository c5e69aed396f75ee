import Foundation
import TallyCore

/// A change a member made to a ledger's expenses and payments, told once it is stored.
public struct EntryChange: Sendable {
    public enum Kind: String, Sendable {
        case added, changed, deleted, restored
    }

    public var kind: Kind
    public var ledger: UUID
    /// The account that made it.
    public var author: UUID
    /// The entry as it is now.
    public var entry: SpendingEntry
    public var at: Date

    public init(kind: Kind, ledger: UUID, author: UUID, entry: SpendingEntry, at: Date) {
        self.kind = kind
        self.ledger = ledger
        self.author = author
        self.entry = entry
        self.at = at
    }

    /// The amount of a new expense, which a burst's summary adds up; nil for anything else.
    public var addedExpense: Int64? {
        kind == .added && entry.kind == .expense ? entry.amount.minorUnits : nil
    }
}

/// Who hears of ledger changes (the server's notifications). Told after the change committed,
/// on the request's path: it must return at once and do its work elsewhere.
public protocol EntryChangeListener: Sendable {
    func entryChanged(_ change: EntryChange)
}
