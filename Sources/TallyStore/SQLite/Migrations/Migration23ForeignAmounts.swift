import Foundation
import GRDB
import TallyCore

enum Migration23ForeignAmounts: Migration {
    static let name = "23 entries in another currency"

    static func migrate(_ db: Database) throws {
        // An entry typed in another currency than its ledger's keeps that amount (in the
        // currency's minor units), the currency and the rate as exact text; `amount` stays the
        // ledger's, so that totals read one column. All three or none.
        try db.alter(table: "spendingEntry") { t in
            t.add(column: "originalAmount", .integer)
            t.add(column: "originalCurrency", .text)
            t.add(column: "rate", .text)
        }
        // A ledger's other currencies (its page's breakdown, a form's last rate), read from
        // those entries only.
        try db.create(index: "spendingEntry_foreign", on: "spendingEntry", columns: ["ledgerId", "originalCurrency"],
                      condition: Column("originalCurrency") != nil)
    }
}
