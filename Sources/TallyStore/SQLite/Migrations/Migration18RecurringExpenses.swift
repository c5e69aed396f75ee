import Foundation
import GRDB
import TallyCore

enum Migration18RecurringExpenses: Migration {
    static let name = "18 recurring expenses"

    static func migrate(_ db: Database) throws {
        // A ledger's expenses that record themselves on the days of their rule. The split's
        // members and values are JSON ([{"member": 1, "value": "2"}]): a template is read
        // whole, never searched by member. Days are YYYYMMDD numbers, as elsewhere.
        try db.create(table: "recurringExpense") { t in
            t.primaryKey("id", .blob)
            t.belongsTo("ledger", onDelete: .cascade).notNull()
            t.column("amount", .integer).notNull().check { $0 > 0 }
            t.column("payerId", .integer).notNull().references("ledgerMember")
            t.column("description", .text)
            t.column("category", .text)
            t.column("splitMethod", .text).notNull()
            t.column("splitParts", .text).notNull()
            // The rule: week (weekday 1–7), month (day 1–31) or year (month and day).
            t.column("every", .text).notNull()
            t.column("weekday", .integer)
            t.column("day", .integer)
            t.column("month", .integer)
            // The IANA zone whose days the rule counts.
            t.column("timeZone", .text).notNull()
            t.column("nextDate", .integer).notNull()
            t.column("endDate", .integer)
            t.column("pausedAt", .datetime)
            t.column("createdBy", .blob).references("user", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
        }
        // What the schedule looks for every minute: the running ones whose day has come.
        try db.execute(sql: "CREATE INDEX recurringExpense_due ON recurringExpense(nextDate) WHERE pausedAt IS NULL")
    }
}
