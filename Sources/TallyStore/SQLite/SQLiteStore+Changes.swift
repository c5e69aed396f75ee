import Foundation
import GRDB
import Synchronization
import TallyCore
import TallyRepositories

/// How the SQLite store tells what each of its commits touched.
///
/// The writing connection gets triggers of its own (TEMP: they exist on that connection only, so
/// the `tally` command, the `sqlite3` shell or an older Tally never meet them): a new line of a
/// ledger's activity log names the ledger, and a day's total written names the day. They call a
/// function of this process that notes the topic; `write` takes the notes inside its transaction
/// and signals them once it has committed, so that a follower that wakes reads the change.
final class CommitTopics: Sendable {
    private let noted = Mutex(Set<ChangeTopic>())

    func note(_ topic: ChangeTopic) { _ = noted.withLock { $0.insert(topic) } }

    /// The topics noted since the last take: called inside a transaction, they are its own.
    func take() -> Set<ChangeTopic> { noted.withLock { noted in defer { noted = [] }; return noted } }

    /// Installs the function and triggers on `db`, the connection that writes.
    func install(on db: Database) throws {
        db.add(function: DatabaseFunction("tally_ledger_changed", argumentCount: 1, pure: false) { [self] values in
            if let ledger = UUID.fromDatabaseValue(values[0]) { note(.ledger(ledger)) }
            return nil
        })
        db.add(function: DatabaseFunction("tally_day_changed", argumentCount: 2, pure: false) { [self] values in
            if let user = UUID.fromDatabaseValue(values[0]), let day = Int.fromDatabaseValue(values[1]) {
                note(.day(user: user, LocalDate(number: day)))
            }
            return nil
        })
        try db.execute(sql: """
            CREATE TEMP TRIGGER IF NOT EXISTS tally_ledger_logged AFTER INSERT ON main.ledgerActivity BEGIN
                SELECT tally_ledger_changed(NEW.ledgerId);
            END;
            CREATE TEMP TRIGGER IF NOT EXISTS tally_day_added AFTER INSERT ON main.dayTotal BEGIN
                SELECT tally_day_changed(NEW.userId, NEW.day);
            END;
            CREATE TEMP TRIGGER IF NOT EXISTS tally_day_changed AFTER UPDATE ON main.dayTotal BEGIN
                SELECT tally_day_changed(NEW.userId, NEW.day);
            END;
            """)
    }
}

extension SQLiteStore: ChangeSource {
    /// How often the server looks for changes that another process (a `tally` command on the
    /// same file) committed.
    static let otherProcessesCheck: Duration = .milliseconds(300)

    /// Looks, on the writing connection, at SQLite's `data_version`, which moves when another
    /// connection to the file commits: then every follower reads again, since what changed is not
    /// known. Topics that a write made outside `write` left noted (a migration, a bulk import's
    /// own transactions) are committed by now, and signalled here too.
    public func watchChanges() async throws {
        guard let topics else { return }
        var seen: Int?
        while !Task.isCancelled {
            let (version, noted) = try await writer.writeWithoutTransaction { db in
                (try Int.fetchOne(db, sql: "PRAGMA data_version"), topics.take())
            }
            if !noted.isEmpty { changes.signal(noted) }
            if let seen, version != seen { changes.signalEverything() }
            seen = version
            try await Task.sleep(for: Self.otherProcessesCheck)
        }
    }
}
