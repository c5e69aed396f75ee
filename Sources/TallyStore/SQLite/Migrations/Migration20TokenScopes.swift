import Foundation
import GRDB
import TallyCore

enum Migration20TokenScopes: Migration {
    static let name = "20 token scopes"

    static func migrate(_ db: Database) throws {
        // What a token may do: read, write or drinks (TokenScope). Tokens made before could do
        // everything, and keep that.
        try db.alter(table: "apiToken") { t in t.add(column: "scope", .text).notNull().defaults(to: "write") }
    }
}
