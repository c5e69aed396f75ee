import Foundation
import GRDB
import TallyCore

extension SQLiteStore: ReminderRepository {
    public func reminderSettings(of user: UUID) async throws -> ReminderSettings {
        try await read { db in try Self.userRecord(user, db).reminderSettings }
    }

    public func saveReminderSettings(_ settings: ReminderSettings, of user: UUID) async throws {
        let json = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try await write { db in
            _ = try Self.userRecord(user, db)
            try db.execute(sql: "UPDATE user SET reminders = ? WHERE id = ?", arguments: [json, user])
        }
    }

    public func setCalendarSecret(hash: Data?, of user: UUID) async throws {
        try await write { db in
            _ = try Self.userRecord(user, db)
            try db.execute(sql: "UPDATE user SET calendarSecretHash = ? WHERE id = ?", arguments: [hash, user])
        }
    }

    public func calendarOwner(secretHash: Data) async throws -> (user: User, settings: HydrationSettings, reminders: ReminderSettings)? {
        try await read { db in
            try UserRecord.filter(sql: "calendarSecretHash = ?", arguments: [secretHash]).fetchOne(db)
                .map { ($0.user, $0.settings, $0.reminderSettings) }
        }
    }
}
