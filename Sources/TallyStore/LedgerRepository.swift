import Foundation
import TallyCore

/// A ledger as its members see it.
public struct LedgerDetails: Equatable, Sendable {
    public var ledger: Ledger
    /// In the order they joined.
    public var members: [LedgerMember]
    /// The open invite's code, if any.
    public var inviteCode: String?
    /// Whether any expense or payment was ever recorded (which fixes the currency).
    public var hasEntries: Bool

    public init(ledger: Ledger, members: [LedgerMember], inviteCode: String?, hasEntries: Bool) {
        self.ledger = ledger
        self.members = members
        self.inviteCode = inviteCode
        self.hasEntries = hasEntries
    }

    /// The member the user acts as.
    public func member(of user: UUID) -> LedgerMember? { members.first { $0.userID == user } }
}

/// One line of a ledger's activity log (S5): who did what, when.
public struct LedgerActivity: Equatable, Sendable {
    public var at: Date
    /// The name of the user who did it; nil once that account is gone.
    public var actor: String?
    public var entryID: UUID?
    public var text: String

    public init(at: Date, actor: String?, entryID: UUID?, text: String) {
        self.at = at
        self.actor = actor
        self.entryID = entryID
        self.text = text
    }
}

/// What a change writes to the activity log, in the same transaction as the change.
public struct ActivityNote: Sendable {
    public var text: String
    public var entryID: UUID?

    public init(_ text: String, entryID: UUID? = nil) {
        self.text = text
        self.entryID = entryID
    }
}

/// Ledgers, their members, expenses and payments (S1–S5).
///
/// Every call names the user who asks, and a ledger the user is not a member of is not found
/// (S1): the check runs inside the call's transaction.
public protocol LedgerRepository: Sendable {
    /// Stores a new ledger with its members; `user` becomes the member at `linkedMember`.
    func createLedger(_ ledger: Ledger, memberNames: [String], user: UUID, linkedMember: Int) async throws -> LedgerDetails
    /// The ledgers `user` is a member of, newest first.
    func ledgers(of user: UUID) async throws -> [LedgerDetails]
    func ledger(_ id: UUID, of user: UUID) async throws -> LedgerDetails

    /// Applies `change` to the ledger and its members in one transaction: members whose id is
    /// 0 are added, members missing from the result are removed (only when nothing refers to
    /// them), the rest are updated.
    func changeLedger(_ id: UUID, of user: UUID, at: Date,
                      _ change: @escaping @Sendable (inout LedgerDetails) throws -> [ActivityNote]) async throws -> LedgerDetails
    /// The ledger whose open invite code is `code`, for the person invited to see before joining;
    /// nil when no ledger has it (never made, revoked or replaced).
    func invitedLedger(code: String) async throws -> LedgerDetails?
    /// Links `user` to a member of the ledger whose invite code is `code`: the member `chooser`
    /// picks from the ledger as it stands, inside the transaction.
    func join(code: String, user: UUID, at: Date,
              _ chooser: @escaping @Sendable (LedgerDetails) throws -> (member: LedgerMember, note: ActivityNote)) async throws -> LedgerDetails

    /// Adds the entry `build` makes from the ledger as it stands inside the transaction, so that
    /// its currency and members are the ones it is written with. An `id` already stored in this
    /// ledger returns that entry, never a second one.
    func addEntry(id: UUID, to ledger: UUID, by user: UUID,
                  _ build: @escaping @Sendable (LedgerDetails) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> (entry: SpendingEntry, created: Bool)
    /// An import, all or nothing: creates the ledger (`.new`) or uses one of the user's, adds
    /// `memberNames`, then the entries `build` makes from the ledger with those members. Entries
    /// whose import key (or id) is already stored are left out. Returns the ledger and how many
    /// entries were added.
    func importEntries(into target: ImportTarget, by user: UUID, at: Date, memberNames: [String], note: ActivityNote,
                       _ build: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int)
    /// Applies `change` to an entry in one transaction; it may soft-delete or restore it.
    func changeEntry(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                     _ change: @escaping @Sendable (inout SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry
    func entry(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> SpendingEntry
    /// Newest first (by date, then by when it was recorded); deleted entries only when asked.
    func entries(in ledger: UUID, of user: UUID, includeDeleted: Bool, limit: Int?, offset: Int) async throws -> [SpendingEntry]
    /// Newest first, a page at a time.
    func activity(in ledger: UUID, of user: UUID, limit: Int, offset: Int) async throws -> [LedgerActivity]
}

/// Where an import goes: a new ledger (the user becomes its first member) or one of theirs.
public enum ImportTarget: Sendable {
    case new(Ledger)
    case existing(UUID)
}

/// An entry of an import with the key that recognises it when the same file comes again.
public struct ImportedEntry: Sendable {
    public var entry: SpendingEntry
    public var importKey: String

    public init(entry: SpendingEntry, importKey: String) {
        self.entry = entry
        self.importKey = importKey
    }
}
