import Foundation
import GRDB
import TallyCore

enum Migration03GoalHistory: Migration {
    static let name = "3 goal history"

    static func migrate(_ db: Database) throws {
        try db.create(table: "goal") { t in
            t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
            t.column("startDay", .integer).notNull()
            t.column("endDay", .integer)
            t.column("mode", .text).notNull()
            t.column("targetMl", .double)
            t.primaryKey(["userId", "startDay"])
        }
    }
}
