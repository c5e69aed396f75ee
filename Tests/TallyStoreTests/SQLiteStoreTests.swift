import Foundation
import GRDB
import Testing
import TallyCore
@testable import TallyStore

/// What only the SQLite store has: its file, its migrations and its indexes.
@Suite("SQLite store")
struct SQLiteStoreTests {
    @Test("The file and its folder are created, in WAL mode")
    func createsFile() async throws {
        let path = temporaryDatabasePath()
        let store = try SQLiteStore.open(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let mode = try await store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
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
            try await old.write { db in
                try db.execute(sql: "INSERT INTO user (id, name, createdAt, unit, timeZone) VALUES (?, 'ada', ?, 'oz', 'Asia/Tokyo')",
                               arguments: [id, Date()])
            }
            try old.close()
            // act
            let store = try SQLiteStore.open(path: path)
            // check
            let applied = try await store.writer.read { db in try migrator.appliedMigrations(db) }
            #expect(applied == migrator.migrations, "from migration \(index + 1)")
            let settings = try await store.settings(of: id)
            #expect(settings.unit == .oz && settings.timeZone == "Asia/Tokyo", "from migration \(index + 1)")
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

    @Test("Daily sums are answered from the covering indexes, without reading the tables")
    func dailySumsUseIndexes() async throws {
        let store = try SQLiteStore.inMemory()
        let plan = try await store.writer.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN
                SELECT day, SUM(ml) FROM (
                    SELECT day, effectiveMl AS ml FROM intake WHERE userId = ? AND day BETWEEN ? AND ?
                    UNION ALL
                    SELECT day, -volumeMl FROM removal WHERE userId = ? AND day BETWEEN ? AND ?
                ) GROUP BY day
                """, arguments: [UUID(), "2025-01-01", "2025-12-31", UUID(), "2025-01-01", "2025-12-31"])
                .map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("USING COVERING INDEX intake_byDay") }, "\(plan)")
        #expect(plan.contains { $0.contains("USING COVERING INDEX removal_byDay") }, "\(plan)")
    }

    @Test("The schema refuses a drink out of range even if a caller skips the rules")
    func schemaChecks() async throws {
        let f = try await Fixture(.sqliteInMemory)
        let water = try await f.kind("water")
        let bad = Intake(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 6000, kind: water, note: nil, source: .manual)
        await #expect(throws: TallyError.self) { try await f.store.addIntake(bad, of: f.user.id) }
    }

    @Test("A backup is a consistent copy that opens as a store")
    func backup() async throws {
        let f = try await Fixture(.sqliteFile)
        try await f.hydration.logDrink(.init(volumeMl: 321))
        let copy = temporaryDatabasePath()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: copy).deletingLastPathComponent(), withIntermediateDirectories: true)
        try (f.store as! SQLiteStore).backup(to: copy)
        let restored = try SQLiteStore.open(path: copy)
        #expect(try await restored.dailyTotals(of: f.user.id, from: nil, through: nil).values.first == 321)
    }
}
