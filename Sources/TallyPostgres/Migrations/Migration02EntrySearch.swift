import Foundation
import PostgresNIO
import TallyCore

extension PostgresMigrations {
    /// SQLite's migration 16.
    static let entrySearch = Migration(version: 2, name: "entry search", sql: "ALTER TABLE spendingEntry ADD COLUMN searchKey text;") { connection, logger in
        let described = try await connection.rows(
            "SELECT id, description FROM spendingEntry WHERE description IS NOT NULL", logger: logger)
        for row in described {
            let (id, description) = try row.decode((UUID, String).self)
            try await connection.run(
                "UPDATE spendingEntry SET searchKey = \(UserText.searchKey(description)) WHERE id = \(id)", logger: logger)
        }
    }
}
