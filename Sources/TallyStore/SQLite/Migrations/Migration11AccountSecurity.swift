import Foundation
import GRDB
import TallyCore

enum Migration11AccountSecurity: Migration {
    static let name = "11 account security"

    static func migrate(_ db: Database) throws {
        // A1: who may sign up, accounts the admin can disable, a throttle that cannot be
        // raced, sessions and tokens a person can see and end.
        try db.alter(table: "user") { t in
            t.add(column: "disabledAt", .datetime)
            // The throttle keeps its own rows now, per account and per client address.
            t.drop(column: "failedSignIns")
            t.drop(column: "lastFailedSignInAt")
        }
        try db.create(table: "serverSetting", options: .withoutRowID) { t in
            t.primaryKey("name", .text)
            t.column("value", .text).notNull()
        }
        try db.create(table: "signUpInvite", options: .withoutRowID) { t in
            t.primaryKey("codeHash", .blob)
            t.column("createdAt", .datetime).notNull()
            t.column("expiresAt", .datetime).notNull()
            t.column("usesLeft", .integer).notNull()
        }
        // One row per sign-in attempt that reached the password check, until it succeeds.
        try db.create(table: "signInAttempt") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("key", .text).notNull().indexed()
            t.column("at", .datetime).notNull()
        }
        try db.alter(table: "session") { t in
            t.add(column: "lastSeenAt", .datetime)
            t.add(column: "device", .text)
        }
        try db.alter(table: "apiToken") { t in
            t.add(column: "expiresAt", .datetime)
            t.add(column: "lastUsedAt", .datetime)
        }
    }
}
