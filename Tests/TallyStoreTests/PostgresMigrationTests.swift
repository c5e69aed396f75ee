import Foundation
import PostgresNIO
import TallyCore
@testable import TallyPostgres
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

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
        // setup: a schema of its own, brought up to date by a history without version 2, as one
        // branch's Tally leaves it
        let url = try testPostgresURL()
        let store = try await PostgresStore.connect(url: url, schema: freshSchema(), maximumConnections: 1)
        defer { store.close() }
        let scratch = freshSchema()
        let first = PostgresMigrations.Migration(version: 1, name: "first", sql: "CREATE TABLE first (id integer);")
        let third = PostgresMigrations.Migration(version: 3, name: "third", sql: "CREATE TABLE third (id integer);")
        let arriving = PostgresMigrations.Migration(version: 2, name: "from the other branch", sql: "CREATE TABLE arrivedLater (id integer);")
        // Each on a connection of the store, in the scratch schema.
        func inScratch<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
            try await store.client.withConnection { connection in
                for statement in ["CREATE SCHEMA IF NOT EXISTS \(scratch)", "SET search_path TO \(scratch)"] {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: store.logger)
                }
                return try await body(connection)
            }
        }
        func migrate(_ migrations: [PostgresMigrations.Migration]) async throws {
            try await inScratch { try await PostgresMigrations.migrate($0, logger: store.logger, migrations: migrations) }
        }
        try await migrate([first, third])

        // act: the merged Tally migrates it, twice
        let merged = [first, arriving, third]
        try await migrate(merged)
        try await migrate(merged)

        // check: version 2 is there once, its table too, and the others were left alone
        let (versions, arrived) = try await inScratch { connection in
            (try await connection.query("SELECT version FROM schemaVersion ORDER BY version", logger: store.logger).collect()
                .map { try $0.decode(Int.self) },
             try await connection.query("SELECT count(*) FROM arrivedLater", logger: store.logger).collect().first?.decode(Int.self))
        }
        #expect(versions == [1, 2, 3] && arrived == 0)
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
