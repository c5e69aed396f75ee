import Foundation
import GRDB
import TallyCore

enum Migration06Ledgers: Migration {
    static let name = "6 ledgers"

    static func migrate(_ db: Database) throws {
        try db.create(table: "ledger") { t in
            t.primaryKey("id", .blob)
            t.column("name", .text).notNull()
            t.column("currency", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            // The code that lets someone join; NULL when no invite is open.
            t.column("inviteCode", .text).unique()
        }
        try db.create(table: "ledgerMember") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("ledger", onDelete: .cascade).notNull()
            t.column("name", .text).notNull()
            t.belongsTo("user", onDelete: .setNull)
            t.uniqueKey(["ledgerId", "name"])
            t.uniqueKey(["ledgerId", "userId"])
        }
        try db.execute(sql: "CREATE UNIQUE INDEX ledgerMember_name ON ledgerMember(ledgerId, name COLLATE NOCASE)")
        // Expenses and payments: a payment is an expense its one recipient owes in full.
        try db.create(table: "spendingEntry") { t in
            t.primaryKey("id", .blob)
            t.belongsTo("ledger", onDelete: .cascade, indexed: false).notNull()
            t.column("kind", .text).notNull()
            // Minor units of the ledger's currency (cents): never a float.
            t.column("amount", .integer).notNull().check { $0 > 0 }
            t.column("payerId", .integer).notNull().references("ledgerMember")
            t.column("date", .integer).notNull()
            t.column("description", .text)
            t.column("category", .text)
            t.column("splitMethod", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("deletedAt", .datetime)
            // Where an imported entry came from, so that importing a file again adds nothing.
            t.column("importKey", .text)
        }
        try db.create(index: "spendingEntry_history", on: "spendingEntry", columns: ["ledgerId", "date", "createdAt"])
        try db.execute(sql: "CREATE UNIQUE INDEX spendingEntry_import ON spendingEntry(ledgerId, importKey) WHERE importKey IS NOT NULL")
        try db.create(table: "spendingShare", options: .withoutRowID) { t in
            t.belongsTo("entry", inTable: "spendingEntry", onDelete: .cascade, indexed: false).notNull()
            t.column("memberId", .integer).notNull().references("ledgerMember")
            // The share count, percentage or exact amount as typed, as exact decimal text.
            t.column("value", .text).notNull()
            t.primaryKey(["entryId", "memberId"])
        }
        try db.create(table: "ledgerActivity") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("ledger", onDelete: .cascade).notNull()
            t.column("at", .datetime).notNull()
            t.belongsTo("user", onDelete: .setNull)
            t.column("entryId", .blob)
            t.column("text", .text).notNull()
        }
    }
}
