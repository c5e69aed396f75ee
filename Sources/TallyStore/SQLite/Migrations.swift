import GRDB

/// The schema's history. A migration, once released, never changes: a database written by an
/// older version is brought up to date step by step, never rebuilt.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("1 users and drink kinds") { db in
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

        migrator.registerMigration("2 intakes and removals") { db in
            try db.create(table: "intake") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("at", .datetime).notNull()
                // The user's local day when it was drunk (YYYY-MM-DD), fixed at logging.
                t.column("day", .text).notNull()
                t.column("volumeMl", .double).notNull().check { $0 > 0 && $0 <= 5000 }
                t.belongsTo("kind", inTable: "drinkKind").notNull()
                t.column("factor", .double).notNull()
                t.column("effectiveMl", .double).notNull()
                t.column("note", .text)
                t.column("source", .text).notNull()
            }
            // Covers the daily sums: a day, a week or ten years are summed from the index alone.
            try db.create(index: "intake_byDay", on: "intake", columns: ["userId", "day", "effectiveMl"])
            try db.create(table: "removal") { t in
                t.primaryKey("id", .blob)
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("at", .datetime).notNull()
                t.column("day", .text).notNull()
                t.column("volumeMl", .double).notNull().check { $0 > 0 && $0 <= 5000 }
            }
            try db.create(index: "removal_byDay", on: "removal", columns: ["userId", "day", "volumeMl"])
        }

        migrator.registerMigration("3 goal history") { db in
            try db.create(table: "goal") { t in
                t.belongsTo("user", onDelete: .cascade, indexed: false).notNull()
                t.column("startDay", .text).notNull()
                t.column("endDay", .text)
                t.column("mode", .text).notNull()
                t.column("targetMl", .double)
                t.primaryKey(["userId", "startDay"])
            }
        }

        return migrator
    }
}
