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

    static let all: [Migration] = [
        Migration(version: 1, name: "the schema of SQLite's migration 15", sql: PostgresSchema.version1),
        // SQLite's migration 16.
        Migration(version: 2, name: "entry search", sql: "ALTER TABLE spendingEntry ADD COLUMN searchKey text;") { connection, logger in
            let described = try await connection.rows(
                "SELECT id, description FROM spendingEntry WHERE description IS NOT NULL", logger: logger)
            for row in described {
                let (id, description) = try row.decode((UUID, String).self)
                try await connection.run(
                    "UPDATE spendingEntry SET searchKey = \(UserText.searchKey(description)) WHERE id = \(id)", logger: logger)
            }
        },
        // SQLite's migration 17, and a ledger's revision: a column that every change updates
        // (see `log`) rather than its activity log's latest id, since identities are handed out
        // before commit and a later id may commit first.
        Migration(version: 3, name: "revisions", sql: """
            ALTER TABLE ledger ADD COLUMN revision bigint NOT NULL DEFAULT 0;
            ALTER TABLE dayTotal ADD COLUMN revision bigint NOT NULL DEFAULT 0;
            CREATE OR REPLACE FUNCTION dayTotal_add(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
                INSERT INTO dayTotal (userId, day, totalMl, entryCount, revision) VALUES (who, onDay, ml, 1, 1)
                ON CONFLICT (userId, day) DO UPDATE
                SET totalMl = dayTotal.totalMl + excluded.totalMl, entryCount = dayTotal.entryCount + 1, revision = dayTotal.revision + 1;
            $$;
            CREATE OR REPLACE FUNCTION dayTotal_subtract(who uuid, onDay date, ml double precision) RETURNS void LANGUAGE sql AS $$
                UPDATE dayTotal SET totalMl = CASE WHEN entryCount = 1 THEN 0 ELSE totalMl - ml END,
                    entryCount = entryCount - 1, revision = revision + 1
                WHERE userId = who AND day = onDay;
            $$;
            """),
        // SQLite's migration 18.
        Migration(version: 4, name: "recurring expenses", sql: PostgresSchema.recurringExpenses),
        // SQLite's migration 19.
        Migration(version: 5, name: "several payers", sql: """
            CREATE TABLE spendingPayer (
                entryId uuid NOT NULL REFERENCES spendingEntry ON DELETE CASCADE,
                memberId bigint NOT NULL REFERENCES ledgerMember,
                paid bigint NOT NULL CHECK (paid > 0),
                PRIMARY KEY (entryId, memberId)
            );
            CREATE INDEX spendingPayer_member ON spendingPayer (memberId);
            ALTER TABLE recurringExpense ADD COLUMN payers text;
            """),
        // SQLite's migration 20.
        Migration(version: 6, name: "token scopes", sql: "ALTER TABLE apiToken ADD COLUMN scope text NOT NULL DEFAULT 'write';"),
        Migration(version: 7, name: "the account's language", sql: "ALTER TABLE users ADD COLUMN language text;"),
        Migration(version: 8, name: "the activity log's phrases", sql: "ALTER TABLE ledgerActivity ADD COLUMN phrase text;"),
        // SQLite's migration 23.
        Migration(version: 9, name: "entries in another currency", sql: """
            ALTER TABLE spendingEntry ADD COLUMN originalAmount bigint, ADD COLUMN originalCurrency text, ADD COLUMN rate text;
            CREATE INDEX spendingEntry_foreign ON spendingEntry (ledgerId, originalCurrency) WHERE originalCurrency IS NOT NULL;
            """),
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
