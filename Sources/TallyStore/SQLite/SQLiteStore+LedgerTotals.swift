import Foundation
import GRDB
import TallyCore
import TallyRepositories

// A ledger's kept totals (S3): one `memberTotal` row per member with anything recorded and one
// `memberShareFraction` row per denominator of an uneven share. Every change to an entry updates
// them in its own transaction, so that a summary reads a few rows however long the ledger is.

extension SQLiteStore {
    /// The totals as kept.
    static func totals(of ledger: UUID, _ db: Database) throws -> LedgerTotals {
        var members: [MemberID: MemberTotals] = [:]
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT memberId, paid, sent, received, shareUnits FROM memberTotal WHERE ledgerId = ?
            """), arguments: [ledger])
        while let row = try rows.next() {
            let member: MemberID = row[0]
            members[member] = MemberTotals(member: member, paid: row[1], sent: row[2], received: row[3], shareUnits: row[4])
        }
        let fractions = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT memberId, denominator, numerator FROM memberShareFraction WHERE ledgerId = ?
            """), arguments: [ledger])
        while let row = try fractions.next() {
            let member: MemberID = row[0]
            members[member, default: MemberTotals(member: member)].shareFractions[row[1]] = row[2]
        }
        return LedgerTotals(Array(members.values))
    }

    /// Changes the kept totals by `change`, in the caller's transaction.
    static func changeTotals(of ledger: UUID, _ db: Database, _ change: (inout LedgerTotals) throws -> Void) throws {
        let before = try totals(of: ledger, db)
        var after = before
        try change(&after)
        try save(after, replacing: before, ledger: ledger, db)
    }

    /// Writes the members whose totals changed.
    private static func save(_ after: LedgerTotals, replacing before: LedgerTotals, ledger: UUID, _ db: Database) throws {
        for member in Set(before.members.keys).union(after.members.keys) {
            let new = after.totals(of: member)
            guard new != before.totals(of: member) else { continue }
            try db.cachedStatement(sql: "DELETE FROM memberShareFraction WHERE memberId = ?").execute(arguments: [member])
            guard !new.isZero else {
                try db.cachedStatement(sql: "DELETE FROM memberTotal WHERE memberId = ?").execute(arguments: [member])
                continue
            }
            try db.cachedStatement(sql: """
                INSERT INTO memberTotal (memberId, ledgerId, paid, sent, received, shareUnits) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (memberId) DO UPDATE SET paid = excluded.paid, sent = excluded.sent,
                    received = excluded.received, shareUnits = excluded.shareUnits
                """).execute(arguments: [member, ledger, new.paid, new.sent, new.received, new.shareUnits])
            for (denominator, numerator) in new.shareFractions {
                try db.cachedStatement(sql: """
                    INSERT INTO memberShareFraction (memberId, denominator, numerator, ledgerId) VALUES (?, ?, ?, ?)
                    """).execute(arguments: [member, denominator, numerator, ledger])
            }
        }
    }

    /// The totals worked out from every entry of the ledger, as the kept ones must always be:
    /// what the migration starts from, and what the tests compare the kept ones with.
    static func recomputedTotals(of ledger: UUID, _ db: Database) throws -> LedgerTotals {
        try LedgerTotals(entries: entries(in: details(ledger, db, withRecurring: false), .current, matching: .everything, limit: nil,
                                          after: nil, db))
    }

    /// Fills the totals of every ledger from its entries (migration 13).
    static func fillTotals(_ db: Database) throws {
        for ledger in try UUID.fetchAll(db, sql: "SELECT id FROM ledger") {
            let totals = try recomputedTotals(of: ledger, db)
            try save(totals, replacing: LedgerTotals(), ledger: ledger, db)
        }
    }
}

extension SQLiteStore: LedgerTotalsCheck {
    public func checkTotals(of ledger: UUID) async throws -> (kept: LedgerTotals, recomputed: LedgerTotals) {
        try await read { db in (try Self.totals(of: ledger, db), try Self.recomputedTotals(of: ledger, db)) }
    }
}
