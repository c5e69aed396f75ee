import Foundation
import GRDB

/// One step of the schema's history, in a file of its own (Migrations/).
protocol Migration: Sendable {
    /// The name GRDB records once it has run: never changed once released.
    static var name: String { get }
    static func migrate(_ db: Database) throws
}

/// The schema's history. A migration, once released, never changes: a database written by an
/// older version is brought up to date step by step, never rebuilt.
enum Migrations {
    /// Every step, oldest first.
    static var all: [any Migration.Type] { [
        Migration01UsersAndDrinkKinds.self,
        Migration02IntakesAndRemovals.self,
        Migration03GoalHistory.self,
        Migration04DailyTotals.self,
        Migration05AccountsSessionsAndTokens.self,
        Migration06Ledgers.self,
        Migration07Bottle.self,
        Migration08Reminders.self,
        Migration09Push.self,
        Migration10AsleepIntervals.self,
        Migration11AccountSecurity.self,
        Migration12LedgerOwnersAndInvites.self,
        Migration13LedgerTotals.self,
        Migration14SplitTheUserRow.self,
        Migration15WhenSleepRecordsWereImported.self,
        Migration16EntrySearch.self,
        Migration17DayRevisions.self,
        Migration18RecurringExpenses.self,
        Migration19SeveralPayers.self,
        Migration20TokenScopes.self,
        Migration21AccountLanguage.self,
        Migration22ActivityPhrases.self,
        Migration23ForeignAmounts.self,
        Migration24Notifications.self,
        Migration25Receipts.self,
        Migration26ProviderSubjects.self,
    ] }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in all {
            migrator.registerMigration(migration.name) { db in try migration.migrate(db) }
        }
        return migrator
    }
}
