import Foundation
import GRDB
import TallyCore

enum Migration13LedgerTotals: Migration {
    static let name = "13 ledger totals"

    static func migrate(_ db: Database) throws {
        // S3 at any size: each member's running totals, kept with every change, so that a
        // summary reads a few rows instead of every entry. Whole minor units, and the exact
        // fractions of uneven shares by denominator (see `MemberTotals`).
        try db.create(table: "memberTotal") { t in
            t.primaryKey("memberId", .integer).references("ledgerMember", onDelete: .cascade)
            t.belongsTo("ledger", onDelete: .cascade).notNull()
            t.column("paid", .integer).notNull()
            t.column("sent", .integer).notNull()
            t.column("received", .integer).notNull()
            t.column("shareUnits", .integer).notNull()
        }
        try db.create(table: "memberShareFraction", options: .withoutRowID) { t in
            t.column("memberId", .integer).notNull().references("ledgerMember", onDelete: .cascade)
            t.column("denominator", .integer).notNull().check { $0 > 1 }
            t.column("numerator", .integer).notNull()
            t.belongsTo("ledger", onDelete: .cascade).notNull()
            t.primaryKey(["memberId", "denominator"])
            t.check(sql: "numerator > 0 AND numerator < denominator")
        }
        // The history a page at a time: newest first, the recently deleted by when.
        try db.create(index: "spendingEntry_deleted", on: "spendingEntry", columns: ["ledgerId", "deletedAt"],
                      condition: Column("deletedAt") != nil)
        try SQLiteStore.fillTotals(db)
    }
}
