import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Push subscriptions, the server's keys and the reminders sent (H11): what several instances
// sending reminders from one database must agree on.
extension PostgresStore: PushRepository {
    public func serverKey(named name: String, orMake make: @escaping @Sendable () -> Data) async throws -> Data {
        try await write(locking: nil) { [self] connection in
            if let stored = try await storedServerKey(name, connection) { return stored }
            let made = make()
            let inserted = try await connection.row("""
                INSERT INTO serverKey (name, value) VALUES (\(name), \(made)) ON CONFLICT (name) DO NOTHING RETURNING 1
                """, logger: logger)
            if inserted != nil { return made }
            // Another instance stored its key while this insert waited for it: that one is the
            // key, and this statement (READ COMMITTED) sees it committed.
            guard let stored = try await storedServerKey(name, connection) else {
                throw TallyError.conflict("The server key \(name) was removed while it was being made: try again.")
            }
            return stored
        }
    }

    private func storedServerKey(_ name: String, _ connection: PostgresConnection) async throws -> Data? {
        try await connection.row("SELECT value FROM serverKey WHERE name = \(name)", logger: logger)?.decode(Data.self)
    }

    public func savePushSubscription(_ subscription: PushSubscription, of user: UUID, at: Date, limit: Int) async throws {
        // The user's lock: two devices subscribing at once are counted one after the other.
        try await write(locking: .user(user)) { [self] connection in
            let others = try await connection.row("""
                SELECT count(*) FROM pushSubscription
                WHERE userId = \(user) AND endpoint <> \(subscription.endpoint) AND goneAt IS NULL
                """, logger: logger)?.decode(Int.self) ?? 0
            guard others < limit else {
                throw StoreRefusal.tooManyDevices(others)
            }
            try await connection.run("""
                INSERT INTO pushSubscription (endpoint, userId, p256dh, auth, createdAt, device)
                VALUES (\(subscription.endpoint), \(user), \(subscription.p256dh), \(subscription.auth), \(at), \(subscription.device))
                ON CONFLICT (endpoint) DO UPDATE SET userId = excluded.userId, p256dh = excluded.p256dh, auth = excluded.auth,
                    device = coalesce(excluded.device, pushSubscription.device), goneAt = NULL, failures = 0
                """, logger: logger)
        }
    }

    public func deletePushSubscription(endpoint: String, of user: UUID?) async throws {
        try await write(locking: nil) { [self] connection in
            if let user {
                try await connection.run("DELETE FROM pushSubscription WHERE endpoint = \(endpoint) AND userId = \(user)", logger: logger)
            } else {
                try await connection.run("DELETE FROM pushSubscription WHERE endpoint = \(endpoint)", logger: logger)
            }
        }
    }

    public func pushSubscriptions(of user: UUID) async throws -> [PushSubscription] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT endpoint, p256dh, auth, device FROM pushSubscription WHERE userId = \(user) AND goneAt IS NULL
                ORDER BY createdAt, endpoint COLLATE "C"
                """, logger: logger).map(Self.subscription)
        }
    }

    public func claimReminder(key: String, at: Date) async throws -> Bool {
        // One statement: a second claim waits for the first to commit, then finds the key taken.
        try await write(locking: nil) { [self] connection in
            try await connection.row("""
                INSERT INTO reminderSent (key, sentAt) VALUES (\(key), \(at)) ON CONFLICT (key) DO NOTHING RETURNING 1
                """, logger: logger) != nil
        }
    }

    @discardableResult
    public func forgetRemindersSent(before date: Date) async throws -> Int {
        try await write(locking: nil) { [self] connection in
            try await connection.row("""
                WITH forgotten AS (DELETE FROM reminderSent WHERE sentAt < \(date) RETURNING 1) SELECT count(*) FROM forgotten
                """, logger: logger)?.decode(Int.self) ?? 0
        }
    }

    public func reminderRecipients() async throws -> [ReminderRecipient] {
        try await read { [self] connection in
            // The recipients, then all their subscriptions at once, from the one snapshot.
            let recipients = try await connection.rows("""
                SELECT \(unescaped: Self.reminderOwnerColumns)
                FROM userReminders
                JOIN users ON users.id = userReminders.userId
                JOIN userSettings ON userSettings.userId = userReminders.userId
                WHERE userReminders.enabled AND users.disabledAt IS NULL
                  AND EXISTS (SELECT 1 FROM pushSubscription WHERE userId = userReminders.userId AND goneAt IS NULL)
                ORDER BY lower(users.name) COLLATE "C", users.name COLLATE "C"
                """, logger: logger).map { row in
                let (user, settings, reminders) = try Self.reminderOwner(row)
                return ReminderRecipient(user: user, settings: settings, reminders: reminders, subscriptions: [])
            }
            let subscriptions = try await subscriptions(of: recipients.map(\.user.id), connection)
            var snoozed: [UUID: Date] = [:]
            for row in try await connection.rows("""
                SELECT userId, snoozedUntil FROM userReminders
                WHERE userId = ANY(\(recipients.map(\.user.id))) AND snoozedUntil IS NOT NULL
                """, logger: logger) {
                let (user, until) = try row.decode((UUID, Date).self)
                snoozed[user] = until
            }
            return recipients.map { recipient in
                var recipient = recipient
                recipient.subscriptions = subscriptions[recipient.user.id] ?? []
                recipient.snoozedUntil = snoozed[recipient.user.id]
                return recipient
            }
        }
    }

    /// The instant of the user's latest drink. Looked for among the last days only (found from
    /// the day index at once), not among years of drinks: the latest instant is on the latest
    /// day, or, after a move across time zones, at most two days before it.
    public func lastDrink(of user: UUID) async throws -> Date? {
        try await connection { [self] connection in
            try await connection.row("""
                SELECT max(at) FROM intake
                WHERE userId = \(user) AND day >= (SELECT max(day) FROM intake WHERE userId = \(user)) - 2
                """, logger: logger)?.decode(Date?.self)
        }
    }

    /// The subscriptions that take notifications of each of `users`.
    func subscriptions(of users: [UUID], _ connection: PostgresConnection) async throws -> [UUID: [PushSubscription]] {
        var subscriptions: [UUID: [PushSubscription]] = [:]
        for row in try await connection.rows("""
            SELECT endpoint, p256dh, auth, device, userId FROM pushSubscription WHERE userId = ANY(\(users)) AND goneAt IS NULL
            ORDER BY createdAt, endpoint COLLATE "C"
            """, logger: logger) {
            let (endpoint, p256dh, auth, device, user) = try row.decode((String, Data, Data, String?, UUID).self)
            subscriptions[user, default: []].append(PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, device: device))
        }
        return subscriptions
    }

    /// A subscription from the row's endpoint, p256dh, auth and device.
    private static func subscription(_ row: PostgresRow) throws -> PushSubscription {
        let (endpoint, p256dh, auth, device) = try row.decode((String, Data, Data, String?).self)
        return PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth, device: device)
    }

    public func recordPush(to endpoint: String, at: Date, outcome: PushOutcome) async throws {
        try await write(locking: nil) { [self] connection in
            switch outcome {
            case .delivered:
                try await connection.run("UPDATE pushSubscription SET lastDeliveredAt = \(at), failures = 0 WHERE endpoint = \(endpoint)",
                                         logger: logger)
            case .failed(let failure):
                try await connection.run("""
                    UPDATE pushSubscription SET lastFailedAt = \(at), lastFailure = \(failure), failures = failures + 1
                    WHERE endpoint = \(endpoint)
                    """, logger: logger)
            case .gone:
                try await connection.run("""
                    UPDATE pushSubscription SET goneAt = \(at), lastFailedAt = \(at), lastFailure = 'gone' WHERE endpoint = \(endpoint)
                    """, logger: logger)
            }
        }
    }

    public func pushDevices(of user: UUID) async throws -> [PushDevice] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT endpoint, device, createdAt, lastDeliveredAt, lastFailedAt, lastFailure, failures, goneAt
                FROM pushSubscription WHERE userId = \(user) ORDER BY createdAt, endpoint COLLATE "C"
                """, logger: logger).map { row in
                let (endpoint, device, createdAt, delivered, failed, failure, failures, gone) =
                    try row.decode((String, String?, Date, Date?, Date?, String?, Int, Date?).self)
                return PushDevice(endpoint: endpoint, device: device, subscribedAt: createdAt, lastDeliveredAt: delivered,
                                  lastFailedAt: failed, lastFailure: failure, failures: failures, goneAt: gone)
            }
        }
    }

    public func forgetGonePushDevices(before date: Date) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("DELETE FROM pushSubscription WHERE goneAt < \(date)", logger: logger)
        }
    }

    public func snoozeReminders(of user: UUID, until: Date?) async throws {
        try await write(locking: .user(user)) { [self] connection in
            try await connection.run("UPDATE userReminders SET snoozedUntil = \(until) WHERE userId = \(user)", logger: logger)
        }
    }
}
