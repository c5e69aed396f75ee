import Foundation
import TallyCore
import TallyStore

// Not yet on PostgreSQL: each is replaced by its real implementation.

extension PostgresStore: LedgerRepository {
    public func createLedger(_ ledger: Ledger, memberNames: [String], user: UUID, linkedMember: Int) async throws -> LedgerDetails { fatalError("not yet") }
    public func ledgers(of user: UUID) async throws -> [LedgerDetails] { fatalError("not yet") }
    public func ledger(_ id: UUID, of user: UUID) async throws -> LedgerDetails { fatalError("not yet") }
    public func changeLedger(_ id: UUID, of user: UUID, at: Date, _ change: @escaping @Sendable (inout LedgerDetails) throws -> [ActivityNote]) async throws -> LedgerDetails { fatalError("not yet") }
    public func invitedLedger(codeHash: Data, at: Date) async throws -> LedgerDetails? { fatalError("not yet") }
    public func join(codeHash: Data, user: UUID, at: Date, _ chooser: @escaping @Sendable (LedgerDetails) throws -> (member: LedgerMember, note: ActivityNote)) async throws -> LedgerDetails { fatalError("not yet") }
    public func addEntry(id: UUID, to ledger: UUID, by user: UUID, _ build: @escaping @Sendable (LedgerDetails, TimeZone) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> (entry: SpendingEntry, created: Bool) { fatalError("not yet") }
    public func importEntries(into target: ImportTarget, by user: UUID, at: Date, memberNames: [String], note: ActivityNote, _ build: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int) { fatalError("not yet") }
    public func changeEntry(_ id: UUID, in ledger: UUID, by user: UUID, at: Date, _ change: @escaping @Sendable (inout SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry { fatalError("not yet") }
    public func entry(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> SpendingEntry { fatalError("not yet") }
    public func entries(in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int?, after: UUID?) async throws -> [SpendingEntry] { fatalError("not yet") }
    public func entryIDs(startingWith prefix: String, in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int) async throws -> [UUID] { fatalError("not yet") }
    public func standing(of ledger: UUID, of user: UUID) async throws -> LedgerStanding { fatalError("not yet") }
    public func overview(of ledger: UUID, of user: UUID, limit: Int, after: UUID?, deletedLimit: Int) async throws -> LedgerOverview { fatalError("not yet") }
    public func activity(in ledger: UUID, of user: UUID, limit: Int, offset: Int) async throws -> [LedgerActivity] { fatalError("not yet") }
}
