import Foundation
import GRDB
import TallyCore

enum Migration02IntakesAndRemovals: Migration {
    static let name = "2 intakes and removals"

    static func migrate(_ db: Database) throws {
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
}
