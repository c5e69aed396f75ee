import Foundation
import GRDB
import TallyCore

enum Migration09Push: Migration {
    static let name = "9 push"

    static func migrate(_ db: Database) throws {
        try db.create(table: "serverKey") { t in
            t.primaryKey("name", .text)
            t.column("value", .blob).notNull()
        }
        try db.create(table: "pushSubscription") { t in
            t.primaryKey("endpoint", .text)
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("p256dh", .blob).notNull()
            t.column("auth", .blob).notNull()
            t.column("createdAt", .datetime).notNull()
        }
        // One row per reminder sent, written before sending: the key is unique, so only one
        // server sends it.
        try db.create(table: "reminderSent", options: .withoutRowID) { t in
            t.primaryKey("key", .text)
            t.column("sentAt", .datetime).notNull()
        }
    }
}
