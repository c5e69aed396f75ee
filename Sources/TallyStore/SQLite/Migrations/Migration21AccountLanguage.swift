import Foundation
import GRDB
import TallyCore

enum Migration21AccountLanguage: Migration {
    static let name = "21 the account's language"

    static func migrate(_ db: Database) throws {
        // The language a person chose for the pages; NULL (everyone until now) is their browser's.
        try db.alter(table: "user") { t in t.add(column: "language", .text) }
    }
}
