import Foundation
import GRDB
import TallyCore

enum Migration19SeveralPayers: Migration {
    static let name = "19 several payers"

    static func migrate(_ db: Database) throws {
        // What each of an expense's several payers paid (two people paid one dinner). An
        // expense one member paid has no rows: its payerId says who; with several, payerId
        // is the first of them in member order.
        try db.create(table: "spendingPayer", options: .withoutRowID) { t in
            t.column("entryId", .blob).notNull().references("spendingEntry", onDelete: .cascade)
            t.column("memberId", .integer).notNull().references("ledgerMember")
            t.column("paid", .integer).notNull().check { $0 > 0 }
            t.primaryKey(["entryId", "memberId"])
        }
        try db.create(index: "spendingPayer_member", on: "spendingPayer", columns: ["memberId"])
        // A recurring expense's several payers, as JSON ([{"member": 1, "paid": 40000}]): a
        // template is read whole, never searched by payer. NULL when payerId pays it all.
        try db.alter(table: "recurringExpense") { t in t.add(column: "payers", .text) }
    }
}
