import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: ReminderRepository {
    public func reminderSettings(of user: UUID) async throws -> ReminderSettings {
        try await read { db in ReminderSettings(row: try Self.part(ReminderSettings.columns, from: "userReminders", of: user, db)) }
    }

    public func saveReminderSettings(_ settings: ReminderSettings, of user: UUID) async throws {
        try await write { db in
            try Self.requireUser(user, db)
            try settings.save(of: user, db)
        }
    }

    public func setCalendarSecret(hash: Data?, of user: UUID) async throws {
        try await write { db in
            try Self.requireUser(user, db)
            guard let hash else {
                try db.execute(sql: "DELETE FROM userCalendar WHERE userId = ?", arguments: [user])
                return
            }
            try db.execute(sql: """
                INSERT INTO userCalendar (userId, secretHash) VALUES (?, ?)
                ON CONFLICT (userId) DO UPDATE SET secretHash = excluded.secretHash
                """, arguments: [user, hash])
        }
    }

    public func calendarOwner(secretHash: Data) async throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings)? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(User.columns), \(HydrationSettings.columns), \(ReminderSettings.columns)
                FROM userCalendar
                JOIN user ON user.id = userCalendar.userId
                JOIN userSettings ON userSettings.userId = userCalendar.userId
                LEFT JOIN userReminders ON userReminders.userId = userCalendar.userId
                WHERE userCalendar.secretHash = ? AND user.disabledAt IS NULL
                """), arguments: [secretHash])
                .map { (User(row: $0), HydrationSettings(row: $0), ReminderSettings(row: $0)) }
        }
    }
}
