import Foundation
import GRDB
import TallyCore

enum Migration17DayRevisions: Migration {
    static let name = "17 day revisions"

    static func migrate(_ db: Database) throws {
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
}
