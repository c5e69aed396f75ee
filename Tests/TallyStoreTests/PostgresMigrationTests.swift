import Foundation
import PostgresNIO
import Testing
import TallyCore
@testable import TallyPostgres
@testable import TallyStore

/// The PostgreSQL schema's migrations, which several `tally serve` starting at once share.
@Suite("PostgreSQL migrations")
struct PostgresMigrationTests {
    /// A schema no other test uses.
    private func freshSchema() -> String { "migrations_\(UUID().uuidString.prefix(8).lowercased())" }

    @Test("Instances that start at once on an empty database migrate it once, and all of them work")
    func concurrentStart() async throws {
        let url = try testPostgresURL()
        let schema = freshSchema()
        let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { group in
            for _ in 0..<6 {
                group.addTask { try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 2) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 6)
        let versions = try await stores[0].client.query("SELECT version FROM schemaVersion ORDER BY version")
            .collect().map { try $0.decode(Int.self) }
        #expect(versions == PostgresMigrations.all.map(\.version))
        // Each instance reads what another wrote.
        let clock = FixedClock(instant("2025-06-15T10:00:00Z"))
        let ada = try await UserDirectory(store: stores[1], clock: clock).user(named: "ada", timeZone: "Europe/Berlin")
        for store in stores {
            #expect(try await store.user(named: "ADA") == ada)
        }
        stores.forEach { $0.close() }
    }

    @Test("A database that a newer Tally migrated is refused, with the version it needs")
    func newerDatabase() async throws {
        let url = try testPostgresURL()
        let schema = freshSchema()
        let store = try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 1)
        let future = PostgresMigrations.latest + 1
        try await store.client.query("INSERT INTO schemaVersion (version, name) VALUES (\(future), 'from the future')")
        store.close()
        await #expect {
            try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 1)
        } throws: { error in
            let message = (error as? TallyError)?.message ?? ""
            return (error as? TallyError)?.kind == .conflict && message.contains("newer version of Tally")
                && message.contains("schema \(future)")
        }
    }

    @Test("A migration whose version is below the database's highest is still applied, once (versions made side by side)")
    func lowerVersionArrivesLater() async throws {
        // setup: a database brought up to date without a version 3, as one branch's Tally leaves it
        let url = try testPostgresURL()
        let schema = freshSchema()
        let store = try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 1)
        #expect(!PostgresMigrations.all.contains { $0.version == 3 })
        let arriving = PostgresMigrations.Migration(version: 3, name: "from the other branch", sql: "CREATE TABLE arrivedLater (id integer);")
        let merged = (PostgresMigrations.all + [arriving]).sorted { $0.version < $1.version }

        // act: the merged Tally migrates it, twice
        for _ in 0..<2 {
            try await store.client.withConnection { connection in
                try await PostgresMigrations.migrate(connection, logger: store.logger, migrations: merged)
            }
        }

        // check: version 3 is there once, its table too, and the later versions were left alone
        let versions = try await store.client.query("SELECT version FROM schemaVersion ORDER BY version")
            .collect().map { try $0.decode(Int.self) }
        #expect(versions == merged.map(\.version))
        #expect(try await store.client.query("SELECT count(*) FROM arrivedLater").collect().first?.decode(Int.self) == 0)
        store.close()
    }

    @Test("An address that reaches no server is named without its password")
    func unreachable() async throws {
        await #expect {
            try await PostgresStore.connect(url: "postgres://tally:hunter2@127.0.0.1:1/tally?sslmode=disable")
        } throws: { error in
            let message = (error as? TallyError)?.message ?? ""
            return message.hasPrefix("Cannot reach PostgreSQL at postgres://tally:•••@127.0.0.1:1/tally") && !message.contains("hunter2")
        }
    }
}
