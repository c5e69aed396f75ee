import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Who hears of a ledger's changes, and the bursts that several instances count together.
extension PostgresStore: LedgerNoticeRepository {
    public func changeRecipients(of ledger: UUID, except author: UUID) async throws -> [ChangeRecipient] {
        try await read { [self] connection in
            let members = try await connection.rows("""
                SELECT ledgerMember.id, \(unescaped: Self.userColumns)
                FROM ledgerMember JOIN users ON users.id = ledgerMember.userId
                WHERE ledgerMember.ledgerId = \(ledger) AND ledgerMember.userId <> \(author) AND ledgerMember.notifyChanges
                  AND users.disabledAt IS NULL
                  AND EXISTS (SELECT 1 FROM pushSubscription WHERE userId = users.id AND goneAt IS NULL)
                ORDER BY ledgerMember.id
                """, logger: logger).map { row in
                let (member, id, name, createdAt, language) = try row.decode((MemberID, UUID, String, Date, String?).self)
                return (member, User(id: id, name: name, createdAt: createdAt, language: language))
            }
            let subscriptions = try await subscriptions(of: members.map(\.1.id), connection)
            return members.map { ChangeRecipient(user: $0.1, member: $0.0, subscriptions: subscriptions[$0.1.id] ?? []) }
        }
    }

    public func changeNotifications(in ledger: UUID, of user: UUID) async throws -> Bool {
        try await connection { [self] connection in
            guard let row = try await connection.row("""
                SELECT notifyChanges FROM ledgerMember WHERE ledgerId = \(ledger) AND userId = \(user)
                """, logger: logger) else { throw StoreRefusal.noLedger(ledger) }
            return try row.decode(Bool.self)
        }
    }

    public func setChangeNotifications(_ on: Bool, in ledger: UUID, of user: UUID) async throws {
        try await write(locking: nil) { [self] connection in
            guard try await connection.row("""
                UPDATE ledgerMember SET notifyChanges = \(on) WHERE ledgerId = \(ledger) AND userId = \(user) RETURNING 1
                """, logger: logger) != nil else { throw StoreRefusal.noLedger(ledger) }
        }
    }

    public func joinBurst(ledger: UUID, author: UUID, at: Date, lasting: TimeInterval, added: Int64?) async throws -> BurstJoin {
        // The ledger's lock: two changes by the same person at once cannot both open a burst.
        try await write(locking: .ledger(ledger)) { [self] connection in
            if try await connection.row("""
                UPDATE ledgerBurst SET more = more + 1, added = added + \(added ?? 0), allAdded = allAdded AND \(added != nil)
                WHERE id = (SELECT id FROM ledgerBurst WHERE ledgerId = \(ledger) AND authorId = \(author) AND endsAt > \(at)
                            ORDER BY startedAt DESC LIMIT 1)
                RETURNING 1
                """, logger: logger) != nil {
                return .joined
            }
            try await connection.run("""
                INSERT INTO ledgerBurst (ledgerId, authorId, startedAt, endsAt)
                VALUES (\(ledger), \(author), \(at), \(at.addingTimeInterval(lasting)))
                """, logger: logger)
            return .opened
        }
    }

    public func endBursts(at now: Date) async throws -> [EndedBurst] {
        // A read first: most of the time no burst has ended.
        guard try await connection({ [self] connection in
            try await connection.row("SELECT 1 FROM ledgerBurst WHERE endsAt <= \(now) LIMIT 1", logger: logger) != nil
        }) else { return [] }
        // Two instances deleting at once: the second waits for the first's rows and skips them.
        return try await write(locking: nil) { [self] connection in
            try await connection.rows("""
                DELETE FROM ledgerBurst WHERE endsAt <= \(now) RETURNING ledgerId, authorId, startedAt, more, added, allAdded
                """, logger: logger).map { row in
                let (ledger, author, startedAt, more, added, allAdded) = try row.decode((UUID, UUID, Date, Int, Int64, Bool).self)
                return EndedBurst(ledger: ledger, author: author, startedAt: startedAt, more: more, added: added, allAdded: allAdded)
            }
        }
    }
}
