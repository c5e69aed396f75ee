import Foundation
import PostgresNIO
import TallyCore

/// The PostgreSQL schema's history, its own (it begins where the SQLite schema had come to).
/// A migration, once released, never changes.
///
/// Several instances may start at once: the first to take the migration lock brings the schema
/// up to date, the others wait for the lock and then find nothing to do. A database that a newer
/// Tally has migrated is refused, so that an older instance never writes to a schema it does
/// not know.
enum PostgresMigrations {
    struct Migration: Sendable {
        var version: Int
        var name: String
        var sql: String
        /// What SQL cannot do, after it, in the same transaction.
        var then: (@Sendable (PostgresConnection, Logger) async throws -> Void)?
    }

    /// Every migration, in order: one file each in Migrations/, as SQLite's are.
    static let all: [Migration] = [
        schema,
        entrySearch,
        revisions,
        recurringExpenses,
        severalPayers,
        tokenScopes,
        language,
        activityPhrases,
        foreignCurrencies,
        notifications,
        receipts,
        providerSubjects,
        changeNotifications,
    ]

    /// The statements of a migration: split at each `;` that ends a line outside a `$$` body.
    static func statements(of sql: String) -> [String] {
        var statements: [String] = []
        var current = ""
        var inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("--") || (text.isEmpty && current.isEmpty) { continue }
            current += line + "\n"
            if text.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody && text.hasSuffix(";") {
                statements.append(current)
                current = ""
            }
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { statements.append(current) }
        return statements
    }

    static var latest: Int { all.last!.version }

    /// Brings the schema up to date on `connection`, holding the migration lock meanwhile: a
    /// session lock, per schema, so that stores in different schemas of one server do not wait
    /// for each other. Closing the connection releases it too.
    static func migrate(_ connection: PostgresConnection, logger: Logger, migrations: [Migration] = all) async throws {
        try await connection.run("SELECT pg_advisory_lock(4, hashtext(current_schema()))", logger: logger)
        do {
            try await applyMissing(migrations, connection, logger: logger)
            try await connection.run("SELECT pg_advisory_unlock(4, hashtext(current_schema()))", logger: logger)
        } catch {
            try? await connection.run("SELECT pg_advisory_unlock(4, hashtext(current_schema()))", logger: logger)
            throw error
        }
    }

    private static func applyMissing(_ migrations: [Migration], _ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.run("""
            CREATE TABLE IF NOT EXISTS schemaVersion (
                version integer PRIMARY KEY, name text NOT NULL, appliedAt timestamptz NOT NULL DEFAULT now())
            """, logger: logger)
        let applied = Set(try await connection.rows("SELECT version FROM schemaVersion", logger: logger).map { try $0.decode(Int.self) })
        let current = applied.max() ?? 0
        let latest = migrations.last?.version ?? 0
        if current > latest || !applied.isSubset(of: migrations.map(\.version)) {
            throw TallyError.conflict(
                "This database was written by a newer version of Tally (schema \(current), this one knows \(latest)); update Tally to open it.")
        }
        // Every migration the database lacks, not only those after its highest: versions made
        // on two branches at once may arrive in either order.
        for migration in migrations where !applied.contains(migration.version) {
            try await connection.query("BEGIN", logger: logger)
            do {
                for statement in statements(of: migration.sql) {
                    try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.then?(connection, logger)
                try await connection.run(
                    "INSERT INTO schemaVersion (version, name) VALUES (\(migration.version), \(migration.name))", logger: logger)
                try await connection.query("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
