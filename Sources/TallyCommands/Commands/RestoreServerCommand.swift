import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices
import TallyStore

/// Puts a backup in the place of the server's database, while the server is stopped.
struct RestoreServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore-server",
        abstract: "Put a backup made by `tally backup` in the place of the server's SQLite database.",
        discussion: """
            Stop the server first: a running one is refused. The backup is checked (a Tally \
            database, its integrity, a schema this version knows) before anything moves; the \
            database it replaces is kept beside it, named …before-restore-DATE, until you delete it. \
            The backup file itself is left as it was.
            """)

    @Argument(help: ArgumentHelp("The backup to restore.", valueName: "file")) var file: String
    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await reportingErrors {
            guard options.server == nil, options.token == nil else {
                throw TallyError.invalid("`tally restore-server` works on the server's database itself: run it with --database, without --server or --token.")
            }
            guard case .sqlite(let path) = StoreLocation(options.database) else {
                throw TallyError.invalid("`tally restore-server` restores a SQLite database; restore PostgreSQL with pg_restore (see the README).")
            }
            let backup = URL(fileURLWithPath: (file as NSString).expandingTildeInPath).standardizedFileURL.path
            let files = FileManager.default
            guard files.fileExists(atPath: backup) else { throw TallyError.notFound("There is no backup at \(backup).") }
            let replacing = files.fileExists(atPath: path) ? try ServingLock.replacing(path) : nil

            // The copy is checked where it will live, then swapped in: the database is never half written.
            let staging = path + ".restoring"
            try? files.removeItem(atPath: staging)
            do {
                try files.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true,
                                          attributes: [.posixPermissions: 0o700])
                try files.copyItem(atPath: backup, toPath: staging)
                try files.setAttributes([.posixPermissions: 0o600], ofItemAtPath: staging)
                try SQLiteStore.checkRestorable(at: staging)
            } catch {
                try? files.removeItem(atPath: staging)
                throw error as? TallyError ?? TallyError.invalid("Cannot copy \(backup) beside \(path): \(error.localizedDescription)")
            }
            var aside: String?
            if replacing != nil {
                let stamp = Date().formatted(Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard,
                                                                     timeSeparator: .omitted))
                let kept = "\(path).before-restore-\(stamp)"
                for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                    try files.moveItem(atPath: path + suffix, toPath: kept + suffix)
                }
                aside = kept
            }
            try files.moveItem(atPath: staging, toPath: path)
            withExtendedLifetime(replacing) {}
            // An older backup's schema is brought up to date now, not by the server's first request.
            _ = try SQLiteStore.open(path: path, access: .singleConnection)
            let result = RestoreResult(database: path, restoredFrom: backup, keptAside: aside)
            try emitPlain(result, options) {
                t("Restored \(path) from \(backup).") + (aside.map { " " + t("The database it replaced is kept as \($0).") } ?? "")
            }
        }
    }
}

private struct RestoreResult: Encodable {
    var database: String
    var restoredFrom: String
    var keptAside: String?
}
