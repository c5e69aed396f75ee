import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: PushRepository {
    public func serverKey(named name: String, orMake make: @escaping @Sendable () -> Data) async throws -> Data {
        try await write { db in
            if let value = try Data.fetchOne(db, sql: "SELECT value FROM serverKey WHERE name = ?", arguments: [name]) {
                return value
            }
            let value = make()
            try db.execute(sql: "INSERT INTO serverKey (name, value) VALUES (?, ?)", arguments: [name, value])
            return value
        }
    }

    public func savePushSubscription(_ subscription: PushSubscription, of user: UUID, at: Date, limit: Int) async throws {
        try await write { db in
            let others = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM pushSubscription WHERE userId = ? AND endpoint != ? AND goneAt IS NULL
                """,
                                          arguments: [user, subscription.endpoint]) ?? 0
            guard others < limit else {
                throw StoreRefusal.tooManyDevices(others)
            }
            try db.execute(sql: """
                INSERT INTO pushSubscription (endpoint, userId, p256dh, auth, createdAt, device) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (endpoint) DO UPDATE SET userId = excluded.userId, p256dh = excluded.p256dh, auth = excluded.auth,
                    device = coalesce(excluded.device, device), goneAt = NULL, failures = 0
                """, arguments: [subscription.endpoint, user, subscription.p256dh, subscription.auth, at, subscription.device])
        }
    }

    public func deletePushSubscription(endpoint: String, of user: UUID?) async throws {
        try await write { db in
            if let user {
                try db.execute(sql: "DELETE FROM pushSubscription WHERE endpoint = ? AND userId = ?", arguments: [endpoint, user])
            } else {
                try db.execute(sql: "DELETE FROM pushSubscription WHERE endpoint = ?", arguments: [endpoint])
            }
        }
    }

    public func pushSubscriptions(of user: UUID) async throws -> [PushSubscription] {
        try await read { db in try Self.subscriptions(of: user, db) }
    }

    public func claimReminder(key: String, at: Date) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO reminderSent (key, sentAt) VALUES (?, ?)", arguments: [key, at])
            return db.changesCount == 1
        }
    }

    @discardableResult
    public func forgetRemindersSent(before date: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM reminderSent WHERE sentAt < ?", arguments: [date])
            return db.changesCount
        }
    }

    public func reminderRecipients() async throws -> [ReminderRecipient] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(User.columns), \(HydrationSettings.columns), \(ReminderSettings.columns), userReminders.snoozedUntil
                FROM userReminders
                JOIN user ON user.id = userReminders.userId
                JOIN userSettings ON userSettings.userId = userReminders.userId
                WHERE userReminders.enabled AND user.disabledAt IS NULL
                  AND EXISTS (SELECT 1 FROM pushSubscription WHERE userId = userReminders.userId AND goneAt IS NULL)
                """).map { row in
                let user = User(row: row)
                return ReminderRecipient(user: user, settings: HydrationSettings(row: row), reminders: ReminderSettings(row: row),
                                         subscriptions: try Self.subscriptions(of: user.id, db), snoozedUntil: row["snoozedUntil"])
            }
        }
    }

    /// The instant of the user's latest drink. Looked for among the last days only (found from
    /// the day index at once), not among years of drinks: the latest instant is on the latest
    /// day, or, after a move across time zones, at most two days before it.
    public func lastDrink(of user: UUID) async throws -> Date? {
        try await read { db in
            guard let latest = try Int.fetchOne(db, sql: "SELECT max(day) FROM intake WHERE userId = ?", arguments: [user]) else {
                return nil
            }
            return try Date.fetchOne(db, sql: "SELECT max(at) FROM intake WHERE userId = ? AND day >= ?",
                                     arguments: [user, LocalDate(number: latest).adding(days: -2).number])
        }
    }

    public func recordPush(to endpoint: String, at: Date, outcome: PushOutcome) async throws {
        try await write { db in
            switch outcome {
            case .delivered:
                try db.execute(sql: "UPDATE pushSubscription SET lastDeliveredAt = ?, failures = 0 WHERE endpoint = ?",
                               arguments: [at, endpoint])
            case .failed(let failure):
                try db.execute(sql: """
                    UPDATE pushSubscription SET lastFailedAt = ?, lastFailure = ?, failures = failures + 1 WHERE endpoint = ?
                    """, arguments: [at, failure, endpoint])
            case .gone:
                try db.execute(sql: "UPDATE pushSubscription SET goneAt = ?, lastFailedAt = ?, lastFailure = 'gone' WHERE endpoint = ?",
                               arguments: [at, at, endpoint])
            }
        }
    }

    public func pushDevices(of user: UUID) async throws -> [PushDevice] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT endpoint, device, createdAt, lastDeliveredAt, lastFailedAt, lastFailure, failures, goneAt
                FROM pushSubscription WHERE userId = ? ORDER BY createdAt, endpoint
                """, arguments: [user]).map {
                PushDevice(endpoint: $0[0], device: $0[1], subscribedAt: $0[2], lastDeliveredAt: $0[3], lastFailedAt: $0[4],
                           lastFailure: $0[5], failures: $0[6], goneAt: $0[7])
            }
        }
    }

    public func forgetGonePushDevices(before date: Date) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM pushSubscription WHERE goneAt < ?", arguments: [date]) }
    }

    public func snoozeReminders(of user: UUID, until: Date?) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE userReminders SET snoozedUntil = ? WHERE userId = ?", arguments: [until, user])
        }
    }

    static func subscriptions(of user: UUID, _ db: Database) throws -> [PushSubscription] {
        try Row.fetchAll(db, sql: """
            SELECT endpoint, p256dh, auth, device FROM pushSubscription WHERE userId = ? AND goneAt IS NULL ORDER BY createdAt
            """, arguments: [user])
            .map { PushSubscription(endpoint: $0[0], p256dh: $0[1], auth: $0[2], device: $0[3]) }
    }
}
