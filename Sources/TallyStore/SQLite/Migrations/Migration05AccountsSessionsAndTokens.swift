import Foundation
import GRDB
import TallyCore

enum Migration05AccountsSessionsAndTokens: Migration {
    static let name = "5 accounts, sessions and tokens"

    static func migrate(_ db: Database) throws {
        try db.alter(table: "user") { t in
            // NULL for a user who cannot sign in (the CLI's local user).
            t.add(column: "passwordHash", .text)
            t.add(column: "isAdmin", .boolean).notNull().defaults(to: false)
            t.add(column: "failedSignIns", .integer).notNull().defaults(to: 0)
            t.add(column: "lastFailedSignInAt", .datetime)
        }
        try db.create(table: "session", options: .withoutRowID) { t in
            t.primaryKey("tokenHash", .blob)
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
        }
        try db.create(table: "apiToken") { t in
            t.primaryKey("id", .blob)
            t.belongsTo("user", onDelete: .cascade).notNull()
            t.column("name", .text).notNull()
            t.column("tokenHash", .blob).notNull().unique()
            t.column("createdAt", .datetime).notNull()
            t.column("revokedAt", .datetime)
        }
    }
}
