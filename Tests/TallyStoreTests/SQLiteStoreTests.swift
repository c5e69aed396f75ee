import Foundation
import TallyAPI
import GRDB
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// What only the SQLite store has: its file, its migrations and its indexes.
@Suite("SQLite store")
struct SQLiteStoreTests {
    @Test("The file and its folder are created, in WAL mode", arguments: [SQLiteStore.Access.pool, .singleConnection])
    func createsFile(_ access: SQLiteStore.Access) async throws {
        let path = temporaryDatabasePath()
        let store = try SQLiteStore.open(path: path, access: access)
        #expect(FileManager.default.fileExists(atPath: path))
        let mode = try await store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test("One connection opens a file already in WAL mode without writing to it (a command reads with no fsync)")
    func singleConnectionOpensWithoutWriting() async throws {
        let path = temporaryDatabasePath()
        do { _ = try SQLiteStore.open(path: path, access: .singleConnection) } // made, migrated, closed
        let store = try SQLiteStore.open(path: path, access: .singleConnection)
        let mode = try await store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        #expect(wal == 0, "opening wrote \(wal) bytes to the WAL")
    }

    @Test("A5: a write is acknowledged once it is on the disk: the writer's synchronous is FULL, NORMAL only when asked",
          arguments: [SQLiteStore.Access.pool, .singleConnection])
    func durableByDefault(_ access: SQLiteStore.Access) async throws {
        let path = temporaryDatabasePath()
        #expect(try await SQLiteStore.open(path: path, access: access).synchronousSetting() == 2)
        #expect(try await SQLiteStore.open(path: path, access: access, durability: .normal).synchronousSetting() == 1)
        // Still FULL after the pool has closed and reopened its writer's statements.
        let store = try SQLiteStore.open(path: path, access: access)
        (store.writer as? DatabasePool)?.releaseMemory()
        #expect(try await store.synchronousSetting() == 2)
    }

    @Test("Many drinks logged at once, with reads between them, are all kept", arguments: [SQLiteStore.Access.pool, .singleConnection])
    func concurrentWrites(_ access: SQLiteStore.Access) async throws {
        let store = try SQLiteStore.open(path: temporaryDatabasePath(), access: access)
        let user = User(name: "ada", createdAt: Date())
        try await store.createUser(user, settings: HydrationSettings(timeZone: "UTC"), kinds: DrinkFactorSet.builtInKinds())
        let hydration = HydrationService(store: store, clock: SystemClock(), user: user.id)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        _ = try await hydration.logDrinkResult(.init(volumeMl: 10))
                    } else {
                        _ = try await hydration.daySummary()
                    }
                }
            }
            try await group.waitForAll()
        }
        let today = try await hydration.daySummary()
        #expect(today.entries.count == 50)
        #expect(today.totalMl == 500)
    }

    @Test("A database written by every earlier version is migrated and keeps its data")
    func migratesOlderDatabases() async throws {
        let migrator = Migrations.migrator
        for (index, migration) in migrator.migrations.enumerated().dropLast() {
            // setup: a database as an older version left it, with a user in it.
            let path = temporaryDatabasePath()
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            let old = try DatabaseQueue(path: path)
            try migrator.migrate(old, upTo: migration)
            let id = UUID()
            let hasEntries = try await old.read { db in try db.tableExists("intake") }
            try await old.write { db in
                if try db.columns(in: "user").contains(where: { $0.name == "unit" }) {
                    try db.execute(sql: "INSERT INTO user (id, name, createdAt, unit, timeZone) VALUES (?, 'ada', ?, 'oz', 'Asia/Tokyo')",
                                   arguments: [id, Date()])
                } else { // since the person's row was split (migration 14)
                    try db.execute(sql: "INSERT INTO user (id, name, createdAt) VALUES (?, 'ada', ?)", arguments: [id, Date()])
                    try db.execute(sql: "INSERT INTO userSettings (userId, unit, timeZone) VALUES (?, 'oz', 'Asia/Tokyo')", arguments: [id])
                }
                guard hasEntries else { return }
                let kind = UUID()
                try db.execute(sql: "INSERT INTO drinkKind (id, userId, name, factor, isBuiltIn) VALUES (?, ?, 'water', 1, 1)",
                               arguments: [kind, id])
                try db.execute(sql: """
                    INSERT INTO intake (id, userId, at, day, volumeMl, kindId, factor, effectiveMl, source)
                    VALUES (?, ?, ?, 20250615, 300, ?, 1, 300, 'manual')
                    """, arguments: [UUID(), id, Date(), kind])
                try db.execute(sql: "INSERT INTO removal (id, userId, at, day, volumeMl) VALUES (?, ?, ?, 20250615, 100)",
                               arguments: [UUID(), id, Date()])
            }
            try old.close()
            // act
            let store = try SQLiteStore.open(path: path)
            // check
            let applied = try await store.writer.read { db in try migrator.appliedMigrations(db) }
            #expect(applied == migrator.migrations, "from migration \(index + 1)")
            let settings = try await store.settings(of: id)
            #expect(settings.unit == .oz && settings.timeZone == "Asia/Tokyo", "from migration \(index + 1)")
            if hasEntries {
                #expect(try await store.dailyTotals(of: id, from: nil, through: nil) == [day("2025-06-15"): 200],
                        "from migration \(index + 1)")
            }
        }
    }

    @Test("A database from a newer version is refused, not damaged")
    func refusesNewerDatabase() async throws {
        let path = temporaryDatabasePath()
        let store = try SQLiteStore.open(path: path)
        try await store.writer.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('99 from the future')")
        }
        #expect(throws: TallyError.conflict("This database was written by a newer version of Tally; update Tally to open it.")) {
            _ = try SQLiteStore.open(path: path)
        }
    }

    @Test("History reads one row per day, found through the primary key")
    func dailyTotalsUsePrimaryKey() async throws {
        let store = try SQLiteStore.inMemory()
        let plan = try await store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT day, totalMl FROM dayTotal WHERE userId = ? AND day BETWEEN ? AND ?",
                             arguments: [UUID(), 20250101, 20251231])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("SEARCH dayTotal USING PRIMARY KEY (userId=? AND day>? AND day<?)") }, "\(plan)")
    }

    @Test("The daily totals the triggers keep equal the sums of the entries after any changes")
    func dailyTotalsFollowEntries() async throws {
        let f = try await Fixture(.sqliteInMemory, now: "2025-06-15T20:00:00Z")
        var random = SystemRandomNumberGenerator()
        var ids: [UUID] = []
        for step in 0..<300 {
            let at = instant("2025-06-10T06:00:00Z").addingTimeInterval(Double(step) * 1500)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                ids.append(try await f.hydration.logDrink(.init(volumeMl: Double.random(in: 1...600), kindName: "coffee", at: at)).intake.id)
            case 5..<7:
                // Refused when the day has too little: that is H3 at work, not a failure.
                if let (removal, _) = try? await f.hydration.remove(volumeMl: 29.5735, at: at) { ids.append(removal.id) }
            case 7:
                if let id = ids.randomElement() { _ = try? await f.hydration.editDrink(id: id, .init(volumeMl: 77, at: at)) }
            default:
                if let id = ids.randomElement() { _ = try? await f.hydration.deleteEntry(id: id) }
            }
        }
        let kept = try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil)
        var summed: [LocalDate: Double] = [:]
        for offset in 0..<8 {
            let date = day("2025-06-10").adding(days: offset)
            let entries = try await f.store.entries(on: date, of: f.user.id)
            if !entries.isEmpty { summed[date] = DailyTotal.sum(entries) }
        }
        #expect(Set(kept.keys) == Set(summed.keys))
        for (date, total) in summed {
            #expect(abs(kept[date]! - total) < 1e-6, "\(date)")
            #expect(kept[date]! > -1e-6, "\(date) went below zero")
        }
    }

    @Test("The schema refuses a drink out of range even if a caller skips the rules")
    func schemaChecks() async throws {
        let f = try await Fixture(.sqliteInMemory)
        let water = try await f.kind("water")
        let bad = Intake(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 6000, kind: water, note: nil, source: .manual)
        await #expect(throws: TallyError.self) { try await f.store.addIntake(bad, of: f.user.id) }
    }

    @Test("Deleting a user's account deletes their settings, profile, bottle, reminders and calendar feed")
    func userPartsGoWithTheAccount() async throws {
        // The store has no way to delete a user yet: this checks what the schema promises one.
        let f = try await Fixture(.sqliteInMemory)
        let bob = try await f.otherUser()
        for user in [f.user.id, bob.user] {
            _ = try await f.store.saveProfile(try Profile(age: 30, weightKg: 60, activity: .light), of: user) { _, _, _ in }
            _ = try await f.store.changeBottle(of: user, sip: nil) { bottle, _, _ in bottle.levelMl = 500; return nil }
            try await f.store.saveReminderSettings(.standard, of: user)
            try await f.store.setCalendarSecret(hash: Data(user.uuidString.utf8), of: user)
        }
        let tables = ["userSettings", "userProfile", "userBottle", "userReminders", "userCalendar"]
        let store = try #require(f.store as? SQLiteStore)
        let counts = { @Sendable (user: UUID) async throws -> [Int] in
            try await store.writer.read { db in
                try tables.map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0) WHERE userId = ?", arguments: [user]) ?? 0 }
            }
        }
        #expect(try await counts(f.user.id) == [1, 1, 1, 1, 1])
        try await store.writer.write { db in try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [f.user.id]) }
        #expect(try await counts(f.user.id) == [0, 0, 0, 0, 0])
        #expect(try await counts(bob.user) == [1, 1, 1, 1, 1], "the other user keeps theirs")
    }

    @Test("A backup is a consistent copy that opens as a store")
    func backup() async throws {
        let f = try await Fixture(.sqliteFile)
        try await f.hydration.logDrink(.init(volumeMl: 321))
        let copy = temporaryDatabasePath()
        let report = try (f.store as! SQLiteStore).backup(to: copy)
        #expect(report.integrity == "ok" && report.bytes > 0)
        #expect((try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let restored = try SQLiteStore.open(path: copy)
        #expect(try await restored.dailyTotals(of: f.user.id, from: nil, through: nil).values.first == 321)
        // A second backup never overwrites the first.
        try await f.hydration.logDrink(.init(volumeMl: 100))
        #expect(throws: TallyError.self) { try (f.store as! SQLiteStore).backup(to: copy) }
        #expect(try await restored.dailyTotals(of: f.user.id, from: nil, through: nil).values.first == 321)
    }
}
