import Foundation
import GRDB
import TallyCore

enum Migration14SplitTheUserRow: Migration {
    static let name = "14 split the user row"

    static func migrate(_ db: Database) throws {
        // The person's row had grown to hold everything about them (migrations 5, 7 and 8
        // widened it). It becomes the account alone, and each part the person sets up gets a
        // table keyed by the user, so that a second store can have the same clean schema.
        // Hydration settings: one row per user, written with the account.
        try db.create(table: "userSettings", options: .withoutRowID) { t in
            t.primaryKey("userId", .blob).references("user", onDelete: .cascade)
            t.column("unit", .text).notNull()
            t.column("timeZone", .text).notNull()
            // JSON array of millilitres; NULL while the unit's defaults apply. Three or four
            // numbers, always read and written whole: a table of their own would buy nothing.
            t.column("presets", .text)
        }
        // A row only while a profile is set.
        try db.create(table: "userProfile", options: .withoutRowID) { t in
            t.primaryKey("userId", .blob).references("user", onDelete: .cascade)
            t.column("age", .integer).notNull()
            t.column("weightKg", .double).notNull()
            t.column("activity", .text).notNull()
        }
        // A row once the user changed their bottle; without one a full standard bottle applies.
        try db.create(table: "userBottle", options: .withoutRowID) { t in
            t.primaryKey("userId", .blob).references("user", onDelete: .cascade)
            t.column("capacityMl", .double).notNull()
            t.column("levelMl", .double).notNull()
            t.column("sipMl", .double).notNull()
        }
        // A row once the user set their reminders; without one the standard settings apply.
        // ReminderSettings is a few scalars, so they are columns, not JSON; the wake window's
        // times are minutes after midnight.
        try db.create(table: "userReminders", options: .withoutRowID) { t in
            t.primaryKey("userId", .blob).references("user", onDelete: .cascade)
            t.column("enabled", .boolean).notNull()
            t.column("wakeMinutes", .integer).notNull().check { $0 >= 0 && $0 < 1440 }
            t.column("sleepMinutes", .integer).notNull().check { $0 >= 0 && $0 < 1440 }
            t.column("frequency", .integer).notNull()
            // NULL for reminders at fixed times.
            t.column("smartThresholdHours", .integer)
            t.column("useSleepRecords", .boolean).notNull()
        }
        // The calendar feed's secret (its SHA-256), a row only while there is a feed. Not on
        // the account: it signs nobody in, only reads the reminders' feed, and is made and
        // revoked with them (any user may have one, the CLI's too, with no password).
        try db.create(table: "userCalendar", options: .withoutRowID) { t in
            t.primaryKey("userId", .blob).references("user", onDelete: .cascade)
            t.column("secretHash", .blob).notNull().unique()
        }

        try db.execute(sql: """
            INSERT INTO userSettings (userId, unit, timeZone, presets) SELECT id, unit, timeZone, presets FROM user;
            INSERT INTO userProfile (userId, age, weightKg, activity)
            SELECT id, age, weightKg, activity FROM user WHERE age IS NOT NULL AND weightKg IS NOT NULL AND activity IS NOT NULL;
            INSERT INTO userBottle (userId, capacityMl, levelMl, sipMl)
            SELECT id, bottleCapacityMl, bottleLevelMl, bottleSipMl FROM user
            WHERE bottleCapacityMl IS NOT NULL AND bottleLevelMl IS NOT NULL AND bottleSipMl IS NOT NULL;
            INSERT INTO userCalendar (userId, secretHash) SELECT id, calendarSecretHash FROM user WHERE calendarSecretHash IS NOT NULL;
            """)
        // The reminders were JSON, as ReminderSettings encoded itself up to now: read in that
        // shape here, not through today's type. JSON that did not decode read as the standard
        // settings, and so gets no row.
        struct StoredReminders: Decodable {
            struct Window: Decodable { var wake: String; var sleep: String }
            var enabled: Bool
            var window: Window
            var frequency: Int
            var smartThresholdHours: Int?
            var useSleepRecords: Bool?
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, reminders FROM user WHERE reminders IS NOT NULL") {
            let json: String = row["reminders"]
            guard let stored = try? JSONDecoder().decode(StoredReminders.self, from: Data(json.utf8)),
                  let wake = TimeOfDay(stored.window.wake), let sleep = TimeOfDay(stored.window.sleep) else { continue }
            try db.execute(sql: """
                INSERT INTO userReminders (userId, enabled, wakeMinutes, sleepMinutes, frequency, smartThresholdHours, useSleepRecords)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [row["id"] as UUID, stored.enabled, wake.minutes, sleep.minutes, stored.frequency,
                                 stored.smartThresholdHours, stored.useSleepRecords ?? false])
        }

        // The account table again, without the columns that moved. Rebuilt rather than
        // altered: the profile's CHECK and the calendar secret's index stop DROP COLUMN.
        // The migrator has foreign keys off here, so dropping the old table deletes nothing
        // that refers to it, and it checks every reference before committing.
        try db.create(table: "userAccount") { t in
            t.primaryKey("id", .blob)
            t.column("name", .text).notNull().unique().collate(.nocase)
            t.column("createdAt", .datetime).notNull()
            // NULL for a user who cannot sign in (the CLI's local user).
            t.column("passwordHash", .text)
            t.column("isAdmin", .boolean).notNull().defaults(to: false)
            t.column("disabledAt", .datetime)
        }
        try db.execute(sql: """
            INSERT INTO userAccount (id, name, createdAt, passwordHash, isAdmin, disabledAt)
            SELECT id, name, createdAt, passwordHash, isAdmin, disabledAt FROM user
            """)
        try db.drop(table: "user")
        try db.rename(table: "userAccount", to: "user")
    }
}
