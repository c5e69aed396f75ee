import Foundation
import GRDB
import TallyCore

enum Migration04DailyTotals: Migration {
    static let name = "4 daily totals"

    static func migrate(_ db: Database) throws {
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
}
