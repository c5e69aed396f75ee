import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: LedgerNoticeRepository {
    public func changeRecipients(of ledger: UUID, except author: UUID) async throws -> [ChangeRecipient] {
        try await read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(User.columns), ledgerMember.id AS memberId
                FROM ledgerMember JOIN user ON user.id = ledgerMember.userId
                WHERE ledgerMember.ledgerId = ? AND ledgerMember.userId != ? AND ledgerMember.notifyChanges
                  AND user.disabledAt IS NULL
                  AND EXISTS (SELECT 1 FROM pushSubscription WHERE userId = user.id AND goneAt IS NULL)
                ORDER BY ledgerMember.id
                """), arguments: [ledger, author]).map { row in
                let user = User(row: row)
                return ChangeRecipient(user: user, member: row["memberId"], subscriptions: try Self.subscriptions(of: user.id, db))
            }
        }
    }

    public func changeNotifications(in ledger: UUID, of user: UUID) async throws -> Bool {
        try await read { db in
            guard let on = try Bool.fetchOne(db, sql: "SELECT notifyChanges FROM ledgerMember WHERE ledgerId = ? AND userId = ?",
                                             arguments: [ledger, user])
            else { throw StoreRefusal.noLedger(ledger) }
            return on
        }
    }

    public func setChangeNotifications(_ on: Bool, in ledger: UUID, of user: UUID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE ledgerMember SET notifyChanges = ? WHERE ledgerId = ? AND userId = ?", arguments: [on, ledger, user])
            guard db.changesCount == 1 else { throw StoreRefusal.noLedger(ledger) }
        }
    }

    public func joinBurst(ledger: UUID, author: UUID, at: Date, lasting: TimeInterval, added: Int64?) async throws -> BurstJoin {
        // SQLite's writers take turns: the burst found open here is still open when joined.
        try await write { db in
            if let open = try Int64.fetchOne(db, sql: """
                SELECT id FROM ledgerBurst WHERE ledgerId = ? AND authorId = ? AND endsAt > ? ORDER BY startedAt DESC LIMIT 1
                """, arguments: [ledger, author, at]) {
                try db.execute(sql: """
                    UPDATE ledgerBurst SET more = more + 1, added = added + ?, allAdded = allAdded AND ? WHERE id = ?
                    """, arguments: [added ?? 0, added != nil, open])
                return .joined
            }
            try db.execute(sql: "INSERT INTO ledgerBurst (ledgerId, authorId, startedAt, endsAt) VALUES (?, ?, ?, ?)",
                           arguments: [ledger, author, at, at.addingTimeInterval(lasting)])
            return .opened
        }
    }

    public func endBursts(at now: Date) async throws -> [EndedBurst] {
        // A read first: most of the time no burst has ended, and a read takes no writer's turn.
        guard try await read({ db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM ledgerBurst WHERE endsAt <= ?)", arguments: [now]) ?? false
        }) else { return [] }
        return try await write { db in
            try Row.fetchAll(db, sql: """
                DELETE FROM ledgerBurst WHERE endsAt <= ? RETURNING ledgerId, authorId, startedAt, more, added, allAdded
                """, arguments: [now]).map {
                EndedBurst(ledger: $0[0], author: $0[1], startedAt: $0[2], more: $0[3], added: $0[4], allAdded: $0[5])
            }
        }
    }
}
