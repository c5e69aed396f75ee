import Foundation
import TallyCore
import TallyRepositories
import TallyServices
import TallyStore

/// Where the tally is kept: a SQLite file (the default, nothing to set up) or a PostgreSQL
/// database (for several servers on one database). From --database, then TALLY_DATABASE_URL,
/// then TALLY_DATABASE, then the file in the XDG data folder.
package enum StoreLocation: CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    package static var defaultDescription: String { "~/.local/share/tally/tally.sqlite" }

    package init(_ option: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        if let given = nonEmpty(option) ?? nonEmpty(environment["TALLY_DATABASE_URL"]) ?? nonEmpty(environment["TALLY_DATABASE"]) {
            self = PostgresAddress.names(given) ? .postgres(url: given) : .sqlite(path: (given as NSString).expandingTildeInPath)
            return
        }
        // As other programs' data: XDG_DATA_HOME, else HOME's, else the password database's home.
        let dataHome = nonEmpty(environment["XDG_DATA_HOME"]) ?? ((nonEmpty(environment["HOME"]) ?? NSHomeDirectory()) + "/.local/share")
        self = .sqlite(path: dataHome + "/tally/tally.sqlite")
    }

    /// Opens the store, bringing its schema up to date. `process` says how this process uses it:
    /// a server keeps a pool, a command one connection.
    package func open(for process: StoreUse) async throws -> any TallyStorage {
        switch self {
        case .sqlite(let path):
            return try SQLiteStore.open(path: path, access: process == .server ? .pool : .singleConnection, durability: try Self.durability())
        case .postgres(let url):
            return try await Reach.current.postgres(url, process)
        }
    }

    /// FULL unless TALLY_SQLITE_SYNCHRONOUS=normal says otherwise (see the README: it risks the
    /// last writes before a power cut).
    package static func durability() throws -> SQLiteStore.Durability {
        guard let text = ProcessInfo.processInfo.environment["TALLY_SQLITE_SYNCHRONOUS"], !text.isEmpty else { return .full }
        guard let durability = SQLiteStore.Durability(rawValue: text.lowercased()) else {
            throw TallyError.invalid("TALLY_SQLITE_SYNCHRONOUS is full or normal, not \(UserText.quoted(text)).")
        }
        return durability
    }

    /// For logs and messages: the file, or the database's address without its password.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): PostgresAddress.redacted(url) ?? "the PostgreSQL database"
        }
    }
}

package enum StoreUse: Sendable {
    case server
    case command
}
