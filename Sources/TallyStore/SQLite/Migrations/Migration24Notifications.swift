import Foundation
import GRDB
import TallyCore

enum Migration24Notifications: Migration {
    static let name = "24 notifications"

    static func migrate(_ db: Database) throws {
        // Whether the member's account hears of the changes others make (on unless turned off).
        try db.alter(table: "ledgerMember") { t in
            t.add(column: "notifyChanges", .boolean).notNull().defaults(to: true)
        }
        // How each device's deliveries went; a device whose push service said it is gone stays
        // a while (goneAt), taking no more notifications, so that its person learns of it.
        try db.alter(table: "pushSubscription") { t in
            t.add(column: "device", .text)
            t.add(column: "lastDeliveredAt", .datetime)
            t.add(column: "lastFailedAt", .datetime)
            t.add(column: "lastFailure", .text)
            t.add(column: "failures", .integer).notNull().defaults(to: 0)
            t.add(column: "goneAt", .datetime)
        }
        try db.alter(table: "userReminders") { t in
            t.add(column: "snoozedUntil", .datetime)
        }
        // One person's changes to one ledger within a minute: the first is told at once, the
        // rest together when the burst ends. Only open and unfinished bursts are kept.
        try db.create(table: "ledgerBurst") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("ledger", onDelete: .cascade, indexed: false).notNull()
            t.column("authorId", .blob).notNull()
            t.column("startedAt", .datetime).notNull()
            t.column("endsAt", .datetime).notNull()
            t.column("more", .integer).notNull().defaults(to: 0)
            t.column("added", .integer).notNull().defaults(to: 0)
            t.column("allAdded", .boolean).notNull().defaults(to: true)
        }
        try db.create(index: "ledgerBurst_open", on: "ledgerBurst", columns: ["ledgerId", "authorId", "endsAt"])
        try db.create(index: "ledgerBurst_end", on: "ledgerBurst", columns: ["endsAt"])
    }
}
