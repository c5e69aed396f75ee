import Foundation
import GRDB
import TallyCore

enum Migration01UsersAndDrinkKinds: Migration {
    static let name = "1 users and drink kinds"

    static func migrate(_ db: Database) throws {
        try db.create(table: "user") { t in
            t.primaryKey("id", .blob)
            t.column("name", .text).notNull().unique().collate(.nocase)
            t.column("createdAt", .datetime).notNull()
            t.column("unit", .text).notNull().defaults(to: "ml")
            t.column("timeZone", .text).notNull()
            // JSON array of millilitres; NULL while the unit's defaults apply.
            t.column("presets", .text)
            // The profile: all three set, or none.
            t.column("age", .integer)
            t.column("weightKg", .double)
            t.column("activity", .text)
            t.check(sql: "(age IS NULL) = (weightKg IS NULL) AND (age IS NULL) = (activity IS NULL)")
        }
        try db.create(table: "drinkKind") { t in
            t.primaryKey("id", .blob)
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("name", .text).notNull()
            t.column("factor", .double).notNull().check { $0 >= 0 && $0 <= 1.5 }
            t.column("isBuiltIn", .boolean).notNull()
            t.column("isRetired", .boolean).notNull().defaults(to: false)
        }
        try db.execute(sql: """
            CREATE UNIQUE INDEX drinkKind_activeName ON drinkKind(userId, name COLLATE NOCASE) WHERE NOT isRetired
            """)
    }
}
