import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// A ledger's kept totals (S3), as in SQLite: one `memberTotal` row per member with anything
// recorded and one `memberShareFraction` row per denominator of an uneven share. Every change to
// an entry updates them in its own transaction, under the ledger's lock, so that a summary
// reads a few rows however long the ledger is.

extension PostgresStore {
    /// The totals as kept: a member's fractions come with their totals' row, which every member
    /// with a fraction has.
    func totals(of ledger: UUID, _ connection: PostgresConnection) async throws -> LedgerTotals {
        var members: [MemberID: MemberTotals] = [:]
        for row in try await connection.rows("""
            SELECT memberTotal.memberId, memberTotal.paid, memberTotal.sent, memberTotal.received, memberTotal.shareUnits,
                memberShareFraction.denominator, memberShareFraction.numerator
            FROM memberTotal LEFT JOIN memberShareFraction ON memberShareFraction.memberId = memberTotal.memberId
            WHERE memberTotal.ledgerId = \(ledger)
            """, logger: logger) {
            let (member, paid, sent, received, shareUnits, denominator, numerator)
                = try row.decode((MemberID, Int64, Int64, Int64, Int64, Int64?, Int64?).self)
            var totals = members[member] ?? MemberTotals(member: member, paid: paid, sent: sent, received: received, shareUnits: shareUnits)
            if let denominator, let numerator { totals.shareFractions[denominator] = numerator }
            members[member] = totals
        }
        return LedgerTotals(Array(members.values))
    }

    /// Changes the kept totals by `change`, in the caller's transaction.
    func changeTotals(of ledger: UUID, _ connection: PostgresConnection,
                      _ change: (inout LedgerTotals) async throws -> Void) async throws {
        let before = try await totals(of: ledger, connection)
        var after = before
        try await change(&after)
        try await saveTotals(after, replacing: before, ledger: ledger, connection)
    }

    /// Writes the members whose totals changed, in two statements however many they are: out
    /// with their fractions and with the totals that are now zero, then in with the rest.
    private func saveTotals(_ after: LedgerTotals, replacing before: LedgerTotals, ledger: UUID,
                            _ connection: PostgresConnection) async throws {
        let changed = Set(before.members.keys).union(after.members.keys).filter { after.totals(of: $0) != before.totals(of: $0) }
        guard !changed.isEmpty else { return }
        let totals = changed.sorted().map(after.totals(of:))
        let kept = totals.filter { !$0.isZero }
        try await connection.run("""
            WITH fractions AS (DELETE FROM memberShareFraction WHERE memberId = ANY(\(Array(changed))))
            DELETE FROM memberTotal WHERE memberId = ANY(\(totals.filter(\.isZero).map(\.member)))
            """, logger: logger)
        guard !kept.isEmpty else { return }
        let fractions = kept.flatMap { totals in
            totals.shareFractions.map { (member: totals.member, denominator: $0.key, numerator: $0.value) }
        }
        try await connection.run("""
            WITH totals AS (
                INSERT INTO memberTotal (memberId, ledgerId, paid, sent, received, shareUnits)
                SELECT memberId, \(ledger), paid, sent, received, shareUnits
                FROM unnest(\(kept.map(\.member)), \(kept.map(\.paid)), \(kept.map(\.sent)), \(kept.map(\.received)), \(kept.map(\.shareUnits)))
                    AS kept (memberId, paid, sent, received, shareUnits)
                ON CONFLICT (memberId) DO UPDATE SET paid = excluded.paid, sent = excluded.sent,
                    received = excluded.received, shareUnits = excluded.shareUnits)
            INSERT INTO memberShareFraction (memberId, denominator, numerator, ledgerId)
            SELECT memberId, denominator, numerator, \(ledger)
            FROM unnest(\(fractions.map(\.member)), \(fractions.map(\.denominator)), \(fractions.map(\.numerator)))
                AS fraction (memberId, denominator, numerator)
            """, logger: logger)
    }

    /// The totals worked out from every entry of the ledger, as the kept ones must always be.
    func recomputedTotals(of ledger: UUID, _ connection: PostgresConnection) async throws -> LedgerTotals {
        try LedgerTotals(entries: try await entries(in: try await details(ledger, connection), .current, matching: .everything, limit: nil, after: nil, connection))
    }
}

extension PostgresStore: LedgerTotalsCheck {
    public func checkTotals(of ledger: UUID) async throws -> (kept: LedgerTotals, recomputed: LedgerTotals) {
        try await read { [self] connection in
            (try await totals(of: ledger, connection), try await recomputedTotals(of: ledger, connection))
        }
    }
}
