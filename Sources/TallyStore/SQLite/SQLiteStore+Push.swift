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
            let others = try Int.fetchOne(db, sql: "SELECT count(*) FROM pushSubscription WHERE userId = ? AND endpoint != ?",
                                          arguments: [user, subscription.endpoint]) ?? 0
            guard others < limit else {
                throw StoreRefusal.tooManyDevices(others)
            }
            try db.execute(sql: """
                INSERT INTO pushSubscription (endpoint, userId, p256dh, auth, createdAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (endpoint) DO UPDATE SET userId = excluded.userId, p256dh = excluded.p256dh, auth = excluded.auth
                """, arguments: [subscription.endpoint, user, subscription.p256dh, subscription.auth, at])
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
                SELECT \(User.columns), \(HydrationSettings.columns), \(ReminderSettings.columns)
                FROM userReminders
                JOIN user ON user.id = userReminders.userId
                JOIN userSettings ON userSettings.userId = userReminders.userId
                WHERE userReminders.enabled AND user.disabledAt IS NULL
                  AND EXISTS (SELECT 1 FROM pushSubscription WHERE userId = userReminders.userId)
                """).map { row in
                let user = User(row: row)
                return ReminderRecipient(user: user, settings: HydrationSettings(row: row), reminders: ReminderSettings(row: row),
                                         subscriptions: try Self.subscriptions(of: user.id, db))
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

    private static func subscriptions(of user: UUID, _ db: Database) throws -> [PushSubscription] {
        try Row.fetchAll(db, sql: "SELECT endpoint, p256dh, auth FROM pushSubscription WHERE userId = ? ORDER BY createdAt", arguments: [user])
            .map { PushSubscription(endpoint: $0[0], p256dh: $0[1], auth: $0[2]) }
    }
}
