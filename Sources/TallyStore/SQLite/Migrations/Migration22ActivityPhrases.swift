import Foundation
import GRDB
import TallyCore

enum Migration22ActivityPhrases: Migration {
    static let name = "22 the activity log's phrases"

    static func migrate(_ db: Database) throws {
        // What happened as a phrase (key and values), to write in each reader's language; what
        // was logged before keeps its English text.
        try db.alter(table: "ledgerActivity") { t in t.add(column: "phrase", .text) }
    }
}
