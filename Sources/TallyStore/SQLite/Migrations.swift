import Foundation
import GRDB
import TallyCore
import TallyRepositories

/// The schema's history. A migration, once released, never changes: a database written by an
/// older version is brought up to date step by step, never rebuilt.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("1 users and drink kinds") { db in
            try db.create(table: "user") { t in
                t.primaryKey("id", .blob)
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("createdAt", .datetime).notNull()
                t.column("unit", .text).notNull().defaults(to: "ml")
                t.column("timeZone", .text).notNull()
                // JSON array of millilitres; NULL while the unit's defaults apply.
                t.column("presets", .text)
                // The profile: all three set, or none.
                t.column("age", .integer)
                t.column("weightKg", .double)
                t.column("activity", .text)
                t.check(sql: "(age IS NULL) = (weightKg IS NULL) AND (age IS NULL) = (activity IS NULL)")
            }
            try db.create(table: "drinkKind") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("name", .text).notNull()
                t.column("factor", .double).notNull().check { $0 >= 0 && $0 <= 1.5 }
                t.column("isBuiltIn", .boolean).notNull()
                t.column("isRetired", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: """
                CREATE UNIQUE INDEX drinkKind_activeName ON drinkKind(userId, name COLLATE NOCASE) WHERE NOT isRetired
                """)
        }

        migrator.registerMigration("2 intakes and removals") { db in
            try db.create(table: "intake") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("at", .datetime).notNull()
                // The user's local day when it was drunk, as the number YYYYMMDD, fixed at logging.
                t.column("day", .integer).notNull()
                t.column("volumeMl", .double).notNull().check { $0 > 0 && $0 <= 5000 }
                t.belongsTo("kind", inTable: "drinkKind").notNull()
                t.column("factor", .double).notNull()
                t.column("effectiveMl", .double).notNull()
                t.column("note", .text)
                t.column("source", .text).notNull()
            }
            // Covers a day's sum: summed from the index alone.
            try db.create(index: "intake_byDay", on: "intake", columns: ["userId", "day", "effectiveMl"])
            try db.create(table: "removal") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("at", .datetime).notNull()
                t.column("day", .integer).notNull()
                t.column("volumeMl", .double).notNull().check { $0 > 0 && $0 <= 5000 }
            }
            try db.create(index: "removal_byDay", on: "removal", columns: ["userId", "day", "volumeMl"])
        }

        migrator.registerMigration("3 goal history") { db in
            try db.create(table: "goal") { t in
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("startDay", .integer).notNull()
                t.column("endDay", .integer)
                t.column("mode", .text).notNull()
                t.column("targetMl", .double)
                t.primaryKey(["userId", "startDay"])
            }
        }

        migrator.registerMigration("4 daily totals") { db in
            // Each day's total, kept by triggers in the transaction that changes an entry, so that
            // history reads one row per day (3650 for ten years) instead of every drink, and the
            // day-total checks of H3 read one row.
            try db.create(table: "dayTotal", options: .withoutRowID) { t in
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("day", .integer).notNull()
                t.column("totalMl", .double).notNull()
                // Entries of the day; the row goes when the last one does, so float dust from
                // adding and subtracting never outlives the entries.
                t.column("entryCount", .integer).notNull()
                t.primaryKey(["userId", "day"])
            }
            try db.execute(sql: """
                INSERT INTO dayTotal (userId, day, totalMl, entryCount)
                SELECT userId, day, SUM(ml), COUNT(*) FROM (
                    SELECT userId, day, effectiveMl AS ml FROM intake
                    UNION ALL
                    SELECT userId, day, -volumeMl FROM removal
                ) GROUP BY userId, day;
                """)
            // What a row adds to its day: a drink its effective amount, a removal minus its volume.
            let contributions: [(table: String, amount: (String) -> String)] = [
                ("intake", { "\($0).effectiveMl" }),
                ("removal", { "-\($0).volumeMl" }),
            ]
            for (table, amount) in contributions {
                let add = { (row: String) in """
                    INSERT INTO dayTotal (userId, day, totalMl, entryCount)
                    VALUES (\(row).userId, \(row).day, \(amount(row)), 1)
                    ON CONFLICT (userId, day) DO UPDATE
                    SET totalMl = totalMl + excluded.totalMl, entryCount = entryCount + 1;
                    """ }
                let subtract = { (row: String) in """
                    UPDATE dayTotal SET totalMl = totalMl - (\(amount(row))), entryCount = entryCount - 1
                    WHERE userId = \(row).userId AND day = \(row).day;
                    DELETE FROM dayTotal WHERE userId = \(row).userId AND day = \(row).day AND entryCount = 0;
                    """ }
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_added AFTER INSERT ON \(table) BEGIN
                    \(add("NEW"))
                    END;
                    CREATE TRIGGER \(table)_deleted AFTER DELETE ON \(table) BEGIN
                    \(subtract("OLD"))
                    END;
                    CREATE TRIGGER \(table)_changed AFTER UPDATE ON \(table) BEGIN
                    \(subtract("OLD"))
                    \(add("NEW"))
                    END;
                    """)
            }
        }

        migrator.registerMigration("5 accounts, sessions and tokens") { db in
            try db.alter(table: "user") { t in
                // NULL for a user who cannot sign in (the CLI's local user).
                t.add(column: "passwordHash", .text)
                t.add(column: "isAdmin", .boolean).notNull().defaults(to: false)
                t.add(column: "failedSignIns", .integer).notNull().defaults(to: 0)
                t.add(column: "lastFailedSignInAt", .datetime)
            }
            try db.create(table: "session", options: .withoutRowID) { t in
                t.primaryKey("tokenHash", .blob)
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
            }
            try db.create(table: "apiToken") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("name", .text).notNull()
                t.column("tokenHash", .blob).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("revokedAt", .datetime)
            }
        }

        migrator.registerMigration("6 ledgers") { db in
            try db.create(table: "ledger") { t in
                t.primaryKey("id", .blob)
                t.column("name", .text).notNull()
                t.column("currency", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                // The code that lets someone join; NULL when no invite is open.
                t.column("inviteCode", .text).unique()
            }
            try db.create(table: "ledgerMember") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("ledger", onDelete: .cascade).notNull()
                t.column("name", .text).notNull()
                t.belongsTo("user", onDelete: .setNull)
                t.uniqueKey(["ledgerId", "name"])
                t.uniqueKey(["ledgerId", "userId"])
            }
            try db.execute(sql: "CREATE UNIQUE INDEX ledgerMember_name ON ledgerMember(ledgerId, name COLLATE NOCASE)")
            // Expenses and payments: a payment is an expense its one recipient owes in full.
            try db.create(table: "spendingEntry") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("ledger", onDelete: .cascade, indexed: false).notNull()
                t.column("kind", .text).notNull()
                // Minor units of the ledger's currency (cents): never a float.
                t.column("amount", .integer).notNull().check { $0 > 0 }
                t.column("payerId", .integer).notNull().references("ledgerMember")
                t.column("date", .integer).notNull()
                t.column("description", .text)
                t.column("category", .text)
                t.column("splitMethod", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("deletedAt", .datetime)
                // Where an imported entry came from, so that importing a file again adds nothing.
                t.column("importKey", .text)
            }
            try db.create(index: "spendingEntry_history", on: "spendingEntry", columns: ["ledgerId", "date", "createdAt"])
            try db.execute(sql: "CREATE UNIQUE INDEX spendingEntry_import ON spendingEntry(ledgerId, importKey) WHERE importKey IS NOT NULL")
            try db.create(table: "spendingShare", options: .withoutRowID) { t in
                t.belongsTo("entry", inTable: "spendingEntry", onDelete: .cascade, indexed: false).notNull()
                t.column("memberId", .integer).notNull().references("ledgerMember")
                // The share count, percentage or exact amount as typed, as exact decimal text.
                t.column("value", .text).notNull()
                t.primaryKey(["entryId", "memberId"])
            }
            try db.create(table: "ledgerActivity") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("ledger", onDelete: .cascade).notNull()
                t.column("at", .datetime).notNull()
                t.belongsTo("user", onDelete: .setNull)
                t.column("entryId", .blob)
                t.column("text", .text).notNull()
            }
        }

        migrator.registerMigration("7 bottle") { db in
            try db.alter(table: "user") { t in
                // NULL until the user changes their bottle: then a full standard one applies.
                t.add(column: "bottleCapacityMl", .double)
                t.add(column: "bottleLevelMl", .double)
                t.add(column: "bottleSipMl", .double)
            }
        }

        migrator.registerMigration("8 reminders") { db in
            try db.alter(table: "user") { t in
                // NULL until the user sets their reminders: then the standard settings apply.
                t.add(column: "reminders", .text)
                // The SHA-256 of the calendar feed's secret; NULL when there is no feed.
                t.add(column: "calendarSecretHash", .blob)
            }
            try db.execute(sql: "CREATE UNIQUE INDEX user_calendarSecretHash ON user(calendarSecretHash) WHERE calendarSecretHash IS NOT NULL")
        }

        migrator.registerMigration("9 push") { db in
            try db.create(table: "serverKey") { t in
                t.primaryKey("name", .text)
                t.column("value", .blob).notNull()
            }
            try db.create(table: "pushSubscription") { t in
                t.primaryKey("endpoint", .text)
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("p256dh", .blob).notNull()
                t.column("auth", .blob).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            // One row per reminder sent, written before sending: the key is unique, so only one
            // server sends it.
            try db.create(table: "reminderSent", options: .withoutRowID) { t in
                t.primaryKey("key", .text)
                t.column("sentAt", .datetime).notNull()
            }
        }

        migrator.registerMigration("10 asleep intervals") { db in
            // From Apple Health's sleep records (A2): the wake window of the reminders (H11).
            try db.create(table: "asleepInterval", options: .withoutRowID) { t in
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("start", .datetime).notNull()
                t.column("end", .datetime).notNull()
                t.primaryKey(["userId", "end", "start"])
            }
            // The ids of drinks ever imported, kept when a drink is deleted: importing the same
            // export again must not bring back what the person deleted (A2).
            try db.create(table: "importedDrink", options: .withoutRowID) { t in
                t.belongsTo("user", onDelete: .cascade).notNull()
                t.column("id", .blob).notNull()
                t.primaryKey(["userId", "id"])
            }
        }

        migrator.registerMigration("11 account security") { db in
            // A1: who may sign up, accounts the admin can disable, a throttle that cannot be
            // raced, sessions and tokens a person can see and end.
            try db.alter(table: "user") { t in
                t.add(column: "disabledAt", .datetime)
                // The throttle keeps its own rows now, per account and per client address.
                t.drop(column: "failedSignIns")
                t.drop(column: "lastFailedSignInAt")
            }
            try db.create(table: "serverSetting", options: .withoutRowID) { t in
                t.primaryKey("name", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "signUpInvite", options: .withoutRowID) { t in
                t.primaryKey("codeHash", .blob)
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("usesLeft", .integer).notNull()
            }
            // One row per sign-in attempt that reached the password check, until it succeeds.
            try db.create(table: "signInAttempt") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull().indexed()
                t.column("at", .datetime).notNull()
            }
            try db.alter(table: "session") { t in
                t.add(column: "lastSeenAt", .datetime)
                t.add(column: "device", .text)
            }
            try db.alter(table: "apiToken") { t in
                t.add(column: "expiresAt", .datetime)
                t.add(column: "lastUsedAt", .datetime)
            }
        }

        migrator.registerMigration("12 ledger owners and invites") { db in
            // S1: a ledger has an owner, and its invite expires, runs out and is kept hashed.
            try db.create(table: "ledgerInvite", options: .withoutRowID) { t in
                t.primaryKey("codeHash", .blob)
                t.belongsTo("ledger", onDelete: .cascade).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime).notNull()
                t.column("usesLeft", .integer).notNull().check { $0 >= 0 }
            }
            // Links already shared keep working for a week, for as many people as a ledger
            // may have: nobody who was sent one is shut out by the upgrade.
            let now = Date()
            for row in try Row.fetchAll(db, sql: "SELECT id, inviteCode FROM ledger WHERE inviteCode IS NOT NULL") {
                let code: String = row["inviteCode"]
                try db.execute(sql: """
                    INSERT INTO ledgerInvite (codeHash, ledgerId, createdAt, expiresAt, usesLeft) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [InviteCode.hash(code), row["id"] as UUID, now,
                                     now.addingTimeInterval(7 * 86_400), 50])
            }
            // The ledger table again, without the plain codes and with the owner: the member of
            // whoever wrote the ledger's first activity line ("Created the ledger …"), or the
            // first member with an account when that one has gone.
            try db.create(table: "ledgerWithOwner") { t in
                t.primaryKey("id", .blob)
                t.column("name", .text).notNull()
                t.column("currency", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("ownerMemberId", .integer).references("ledgerMember", onDelete: .setNull)
            }
            try db.execute(sql: """
                INSERT INTO ledgerWithOwner (id, name, currency, createdAt, ownerMemberId)
                SELECT id, name, currency, createdAt, COALESCE(
                    (SELECT member.id FROM ledgerMember AS member WHERE member.ledgerId = ledger.id AND member.userId = (
                        SELECT userId FROM ledgerActivity WHERE ledgerId = ledger.id ORDER BY id LIMIT 1)),
                    (SELECT member.id FROM ledgerMember AS member WHERE member.ledgerId = ledger.id AND member.userId IS NOT NULL
                     ORDER BY member.id LIMIT 1))
                FROM ledger
                """)
            try db.drop(table: "ledger")
            try db.rename(table: "ledgerWithOwner", to: "ledger")
        }

        migrator.registerMigration("13 ledger totals") { db in
            // S3 at any size: each member's running totals, kept with every change, so that a
            // summary reads a few rows instead of every entry. Whole minor units, and the exact
            // fractions of uneven shares by denominator (see `MemberTotals`).
            try db.create(table: "memberTotal") { t in
                t.primaryKey("memberId", .integer).references("ledgerMember", onDelete: .cascade)
                t.belongsTo("ledger", onDelete: .cascade).notNull()
                t.column("paid", .integer).notNull()
                t.column("sent", .integer).notNull()
                t.column("received", .integer).notNull()
                t.column("shareUnits", .integer).notNull()
            }
            try db.create(table: "memberShareFraction", options: .withoutRowID) { t in
                t.column("memberId", .integer).notNull().references("ledgerMember", onDelete: .cascade)
                t.column("denominator", .integer).notNull().check { $0 > 1 }
                t.column("numerator", .integer).notNull()
                t.belongsTo("ledger", onDelete: .cascade).notNull()
                t.primaryKey(["memberId", "denominator"])
                t.check(sql: "numerator > 0 AND numerator < denominator")
            }
            // The history a page at a time: newest first, the recently deleted by when.
            try db.create(index: "spendingEntry_deleted", on: "spendingEntry", columns: ["ledgerId", "deletedAt"],
                          condition: Column("deletedAt") != nil)
            try SQLiteStore.fillTotals(db)
        }

        migrator.registerMigration("14 split the user row") { db in
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

        migrator.registerMigration("15 when sleep records were imported") { db in
            // A day keeps the wake window it started with (H11): an interval counts for a day
            // only when it was known before the day began. Intervals imported before this are
            // taken as known from the start (NULL).
            try db.alter(table: "asleepInterval") { t in t.add(column: "importedAt", .datetime) }
        }

        migrator.registerMigration("16 entry search") { db in
            // What a search of the descriptions compares: `UserText.searchKey`, kept beside the
            // description by every write, so that a search is one scan of the ledger's rows
            // without folding each description again.
            try db.alter(table: "spendingEntry") { t in t.add(column: "searchKey", .text) }
            let described = try Row.fetchAll(db, sql: "SELECT id, description FROM spendingEntry WHERE description IS NOT NULL")
            let update = try db.makeStatement(sql: "UPDATE spendingEntry SET searchKey = ? WHERE id = ?")
            for row in described {
                let description: String = row["description"]
                try update.execute(arguments: [UserText.searchKey(description), row["id"] as DatabaseValue])
            }
        }

        migrator.registerMigration("17 day revisions") { db in
            // Each day's total also counts the changes to the day, in the same row and the same
            // statement that keeps the total: how an open page learns, from any instance, that its
            // day changed, at no cost to a drink. The row now stays when the day's last entry goes
            // (its total exactly 0), so that the count never starts again from 0. (A ledger's
            // revision is its activity log's latest id: SQLite's writers take turns, so ids come
            // in the order their changes commit.)
            try db.alter(table: "dayTotal") { t in t.add(column: "revision", .integer).notNull().defaults(to: 0) }
            let contributions: [(table: String, amount: (String) -> String)] = [
                ("intake", { "\($0).effectiveMl" }),
                ("removal", { "-\($0).volumeMl" }),
            ]
            for (table, amount) in contributions {
                let add = { (row: String) in """
                    INSERT INTO dayTotal (userId, day, totalMl, entryCount, revision)
                    VALUES (\(row).userId, \(row).day, \(amount(row)), 1, 1)
                    ON CONFLICT (userId, day) DO UPDATE
                    SET totalMl = totalMl + excluded.totalMl, entryCount = entryCount + 1, revision = revision + 1;
                    """ }
                let subtract = { (row: String) in """
                    UPDATE dayTotal SET totalMl = CASE WHEN entryCount = 1 THEN 0 ELSE totalMl - (\(amount(row))) END,
                        entryCount = entryCount - 1, revision = revision + 1
                    WHERE userId = \(row).userId AND day = \(row).day;
                    """ }
                try db.execute(sql: """
                    DROP TRIGGER \(table)_added;
                    DROP TRIGGER \(table)_deleted;
                    DROP TRIGGER \(table)_changed;
                    CREATE TRIGGER \(table)_added AFTER INSERT ON \(table) BEGIN
                    \(add("NEW"))
                    END;
                    CREATE TRIGGER \(table)_deleted AFTER DELETE ON \(table) BEGIN
                    \(subtract("OLD"))
                    END;
                    CREATE TRIGGER \(table)_changed AFTER UPDATE ON \(table) BEGIN
                    \(subtract("OLD"))
                    \(add("NEW"))
                    END;
                    """)
            }
        }

        migrator.registerMigration("18 recurring expenses") { db in
            // A ledger's expenses that record themselves on the days of their rule. The split's
            // members and values are JSON ([{"member": 1, "value": "2"}]): a template is read
            // whole, never searched by member. Days are YYYYMMDD numbers, as elsewhere.
            try db.create(table: "recurringExpense") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("ledger", onDelete: .cascade).notNull()
                t.column("amount", .integer).notNull().check { $0 > 0 }
                t.column("payerId", .integer).notNull().references("ledgerMember")
                t.column("description", .text)
                t.column("category", .text)
                t.column("splitMethod", .text).notNull()
                t.column("splitParts", .text).notNull()
                // The rule: week (weekday 1–7), month (day 1–31) or year (month and day).
                t.column("every", .text).notNull()
                t.column("weekday", .integer)
                t.column("day", .integer)
                t.column("month", .integer)
                // The IANA zone whose days the rule counts.
                t.column("timeZone", .text).notNull()
                t.column("nextDate", .integer).notNull()
                t.column("endDate", .integer)
                t.column("pausedAt", .datetime)
                t.column("createdBy", .blob).references("user", onDelete: .setNull)
                t.column("createdAt", .datetime).notNull()
            }
            // What the schedule looks for every minute: the running ones whose day has come.
            try db.execute(sql: "CREATE INDEX recurringExpense_due ON recurringExpense(nextDate) WHERE pausedAt IS NULL")
        }

        migrator.registerMigration("19 several payers") { db in
            // What each of an expense's several payers paid (two people paid one dinner). An
            // expense one member paid has no rows: its payerId says who; with several, payerId
            // is the first of them in member order.
            try db.create(table: "spendingPayer", options: .withoutRowID) { t in
                t.column("entryId", .blob).notNull().references("spendingEntry", onDelete: .cascade)
                t.column("memberId", .integer).notNull().references("ledgerMember")
                t.column("paid", .integer).notNull().check { $0 > 0 }
                t.primaryKey(["entryId", "memberId"])
            }
            try db.create(index: "spendingPayer_member", on: "spendingPayer", columns: ["memberId"])
            // A recurring expense's several payers, as JSON ([{"member": 1, "paid": 40000}]): a
            // template is read whole, never searched by payer. NULL when payerId pays it all.
            try db.alter(table: "recurringExpense") { t in t.add(column: "payers", .text) }
        }

        migrator.registerMigration("20 token scopes") { db in
            // What a token may do: read, write or drinks (TokenScope). Tokens made before could do
            // everything, and keep that.
            try db.alter(table: "apiToken") { t in t.add(column: "scope", .text).notNull().defaults(to: "write") }
        }

        return migrator
    }
}
