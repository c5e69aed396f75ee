import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: ReminderRepository {
    public func reminderSettings(of user: UUID) async throws -> ReminderSettings {
        try await read { [self] connection in
            guard let row = try await connection.row("""
                SELECT \(unescaped: Self.reminderColumns)
                FROM users LEFT JOIN userReminders ON userReminders.userId = users.id WHERE users.id = \(user)
                """, logger: logger) else {
                throw StoreRefusal.noSuchUser
            }
            return try Self.reminderSettings(row)
        }
    }

    public func saveReminderSettings(_ settings: ReminderSettings, of user: UUID) async throws {
        try await write(locking: .user(user)) { [self] connection in
            try await requireUser(user, connection)
            try await connection.run("""
                INSERT INTO userReminders (userId, enabled, wakeMinutes, sleepMinutes, frequency, smartThresholdHours, useSleepRecords)
                VALUES (\(user), \(settings.enabled), \(settings.window.wake.minutes), \(settings.window.sleep.minutes),
                    \(settings.frequency), \(settings.smartThresholdHours), \(settings.useSleepRecords))
                ON CONFLICT (userId) DO UPDATE SET enabled = excluded.enabled, wakeMinutes = excluded.wakeMinutes,
                    sleepMinutes = excluded.sleepMinutes, frequency = excluded.frequency,
                    smartThresholdHours = excluded.smartThresholdHours, useSleepRecords = excluded.useSleepRecords
                """, logger: logger)
        }
    }

    public func setCalendarSecret(hash: Data?, of user: UUID) async throws {
        try await write(locking: .user(user)) { [self] connection in
            try await requireUser(user, connection)
            guard let hash else {
                try await connection.run("DELETE FROM userCalendar WHERE userId = \(user)", logger: logger)
                return
            }
            try await connection.run("""
                INSERT INTO userCalendar (userId, secretHash) VALUES (\(user), \(hash))
                ON CONFLICT (userId) DO UPDATE SET secretHash = excluded.secretHash
                """, logger: logger)
        }
    }

    public func calendarOwner(secretHash: Data) async throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings)? {
        try await read { [self] connection in
            guard let row = try await connection.row("""
                SELECT \(unescaped: Self.reminderOwnerColumns)
                FROM userCalendar
                JOIN users ON users.id = userCalendar.userId
                JOIN userSettings ON userSettings.userId = userCalendar.userId
                LEFT JOIN userReminders ON userReminders.userId = userCalendar.userId
                WHERE userCalendar.secretHash = \(secretHash) AND users.disabledAt IS NULL
                """, logger: logger) else {
                return nil
            }
            return try Self.reminderOwner(row)
        }
    }

    /// Read by `reminderSettings(_:)` from the row's first six columns; NULLs (no row) are the standard settings.
    static let reminderColumns = """
        userReminders.enabled, userReminders.wakeMinutes, userReminders.sleepMinutes, userReminders.frequency,
        userReminders.smartThresholdHours, userReminders.useSleepRecords
        """

    static func reminderSettings(_ row: PostgresRow) throws -> ReminderSettings {
        let (enabled, wakeMinutes, sleepMinutes, frequency, smartThresholdHours, useSleepRecords) =
            try row.decode((Bool?, Int?, Int?, Int?, Int?, Bool?).self)
        return .stored(enabled: enabled, wakeMinutes: wakeMinutes, sleepMinutes: sleepMinutes, frequency: frequency,
                       smartThresholdHours: smartThresholdHours, useSleepRecords: useSleepRecords)
    }

    /// The reminders', the settings' and the user's columns: whom a reminder or a calendar feed is for.
    static let reminderOwnerColumns = "\(reminderColumns), \(settingsColumns), \(userColumns)"

    /// From `reminderOwnerColumns`.
    static func reminderOwner(_ row: PostgresRow) throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings) {
        let (_, _, _, _, _, _, unit, timeZone, presets, id, name, createdAt, language) =
            try row.decode((Bool?, Int?, Int?, Int?, Int?, Bool?, String, String, String?, UUID, String, Date, String?).self)
        return (User(id: id, name: name, createdAt: createdAt, language: language),
                HydrationSettings(unitColumn: unit, timeZone: timeZone, presetsColumn: presets), try reminderSettings(row))
    }
}
