import ArgumentParser
import Foundation
import TallyCommands
import TallyCore
import TallyPostgres
import TallyRepositories
import TallyServices
import TallyStore

/// Moves an installation from its SQLite file to PostgreSQL, when one machine is no longer enough.
struct MigrateStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-store",
        abstract: "Copy a whole installation from a SQLite file into an empty PostgreSQL database.",
        discussion: """
            Stop the server first. Everything is copied in one transaction, and each table's rows are \
            counted in both stores before it commits: a difference copies nothing. The SQLite file is \
            only read.
            """)

    @Option(help: ArgumentHelp("The SQLite database file to copy.", valueName: "path")) var from: String
    @Option(help: ArgumentHelp("The PostgreSQL database to copy into, as postgres://user:password@host/name.", valueName: "url")) var to: String
    @OptionGroup var options: CommonOptions

    func run() async throws {
        try await reportingErrors {
            let path = (from as NSString).expandingTildeInPath
            guard FileManager.default.fileExists(atPath: path) else {
                throw TallyError.notFound("There is no SQLite database at \(path).")
            }
            guard PostgresStore.isAddress(to) else {
                throw TallyError.invalid("--to is a PostgreSQL address such as postgres://user:password@host/name.")
            }
            let source = try SQLiteStore.open(path: path, access: .singleConnection)
            let target = try await PostgresStore.connect(url: to, maximumConnections: 1)
            defer { target.close() }
            let tables = try await target.copy(from: source)
            try emitPlain(tables, options) {
                let width = tables.map(\.table.count).max() ?? 0
                return ([t("Copied \(path) to \(PostgresStore.redacted(to)); rows in each table:")]
                    + tables.map { "  \($0.table.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.target)" })
                    .joined(separator: "\n")
            }
        }
    }
}
