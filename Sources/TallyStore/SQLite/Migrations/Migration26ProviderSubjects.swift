import Foundation
import GRDB
import TallyCore

enum Migration26ProviderSubjects: Migration {
    static let name = "26 provider subjects"

    static func migrate(_ db: Database) throws {
        // An account signs in through an OpenID provider as the subject the provider gives it:
        // one account per subject, one subject per account and provider.
        try db.create(table: "accountIdentity") { t in
            t.column("issuer", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("userId", .blob).notNull().references("user", onDelete: .cascade)
            t.column("linkedAt", .datetime).notNull()
            t.primaryKey(["issuer", "subject"])
            t.uniqueKey(["userId", "issuer"])
        }
    }
}
