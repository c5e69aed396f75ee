import Foundation
import GRDB
import TallyCore

enum Migration08Reminders: Migration {
    static let name = "8 reminders"

    static func migrate(_ db: Database) throws {
        try db.alter(table: "user") { t in
            // NULL until the user sets their reminders: then the standard settings apply.
            t.add(column: "reminders", .text)
            // The SHA-256 of the calendar feed's secret; NULL when there is no feed.
            t.add(column: "calendarSecretHash", .blob)
        }
        try db.execute(sql: "CREATE UNIQUE INDEX user_calendarSecretHash ON user(calendarSecretHash) WHERE calendarSecretHash IS NOT NULL")
    }
}
