import Foundation
import GRDB
import TallyCore

enum Migration15WhenSleepRecordsWereImported: Migration {
    static let name = "15 when sleep records were imported"

    static func migrate(_ db: Database) throws {
        // A day keeps the wake window it started with (H11): an interval counts for a day
        // only when it was known before the day began. Intervals imported before this are
        // taken as known from the start (NULL).
        try db.alter(table: "asleepInterval") { t in t.add(column: "importedAt", .datetime) }
    }
}
