import Foundation
import GRDB
import TallyCore

enum Migration10AsleepIntervals: Migration {
    static let name = "10 asleep intervals"

    static func migrate(_ db: Database) throws {
        // From Apple Health's sleep records (A2): the wake window of the reminders (H11).
        try db.create(table: "asleepInterval", options: .withoutRowID) { t in
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("start", .datetime).notNull()
            t.column("end", .datetime).notNull()
            t.primaryKey(["userId", "end", "start"])
        }
        // The ids of drinks ever imported, kept when a drink is deleted: importing the same
        // export again must not bring back what the person deleted (A2).
        try db.create(table: "importedDrink", options: .withoutRowID) { t in
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("id", .blob).notNull()
            t.primaryKey(["userId", "id"])
        }
    }
}
