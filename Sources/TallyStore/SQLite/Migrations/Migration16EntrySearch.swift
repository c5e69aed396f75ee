import Foundation
import GRDB
import TallyCore

enum Migration16EntrySearch: Migration {
    static let name = "16 entry search"

    static func migrate(_ db: Database) throws {
        // What a search of the descriptions compares: `UserText.searchKey`, kept beside the
        // description by every write, so that a search is one scan of the ledger's rows
        // without folding each description again.
        try db.alter(table: "spendingEntry") { t in t.add(column: "searchKey", .text) }
        let described = try Row.fetchAll(db, sql: "SELECT id, description FROM spendingEntry WHERE description IS NOT NULL")
        let update = try db.makeStatement(sql: "UPDATE spendingEntry SET searchKey = ? WHERE id = ?")
        for row in described {
            let description: String = row["description"]
            try update.execute(arguments: [UserText.searchKey(description), row["id"] as DatabaseValue])
        }
    }
}
