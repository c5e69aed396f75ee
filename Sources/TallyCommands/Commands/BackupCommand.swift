import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices
import TallyStore

/// A copy of the whole server's database, made while it runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole SQLite database while the server runs, and check the copy.",
        discussion: """
            Uses SQLite's online backup: the copy holds every change made before it began, and the \
            server goes on serving and writing meanwhile. The file must not exist yet; it is readable \
            by you only, and counts as made once its integrity check passed. To restore it, stop the \
            server and put the copy in the database's place. A PostgreSQL database is backed up \
            with pg_dump instead (see the README).
            """)

    @Argument(help: ArgumentHelp("Where to write the copy, a file that does not exist yet.", valueName: "file"))
    var file: String
    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await reportingErrors {
            guard options.server == nil, options.token == nil else {
                throw TallyError.invalid("`tally backup` copies the server's database itself: run it where the database is, with --database, without --server or --token.")
            }
            guard case .sqlite(let path) = StoreLocation(options.database) else {
                throw TallyError.invalid("`tally backup` copies a SQLite database; back a PostgreSQL database up with pg_dump (see the README).")
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw TallyError.notFound("There is no database at \(path) to back up.")
            }
            let target = URL(fileURLWithPath: (file as NSString).expandingTildeInPath).standardizedFileURL.path
            let report = try SQLiteStore.open(path: path, access: .singleConnection).backup(to: target)
            try emitPlain(report, options) {
                let size = ByteCountFormatter.string(fromByteCount: report.bytes, countStyle: .file)
                let seconds = String(format: "%.1f", report.seconds)
                return t("Backed up \(path) to \(report.path): \(size) in \(seconds) s; the copy passed its integrity check.")
            }
        }
    }
}
