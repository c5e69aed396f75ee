import Foundation
import GRDB
import TallyCore

enum Migration07Bottle: Migration {
    static let name = "7 bottle"

    static func migrate(_ db: Database) throws {
        try db.alter(table: "user") { t in
            // NULL until the user changes their bottle: then a full standard one applies.
            t.add(column: "bottleCapacityMl", .double)
            t.add(column: "bottleLevelMl", .double)
            t.add(column: "bottleSipMl", .double)
        }
    }
}
