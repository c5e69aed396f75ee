import Foundation
import TallyCommands
import TallyCore
import TallyPostgres

extension Reach {
    /// `tally-server`'s: a server's API and PostgreSQL alike.
    static let everywhere = Reach(
        server: { options, environment in
            guard let client = try Remote.client(options, environment: environment) else { return nil }
            return Connection(backend: RemoteHydration(client: client), spending: RemoteSpending(client: client),
                              backup: RemoteBackup(client: client), clock: SystemClock(), options: options)
        },
        postgres: { url, use in
            try await PostgresStore.connect(url: url, maximumConnections: use == .server ? 20 : 1,
                                            deadline: use == .server ? try deadline() : nil)
        })

    /// How long a server's use of PostgreSQL may take: TALLY_POSTGRES_DEADLINE seconds, 5 by default.
    static func deadline() throws -> Duration {
        guard let text = ProcessInfo.processInfo.environment["TALLY_POSTGRES_DEADLINE"], !text.isEmpty else {
            return PostgresStore.defaultDeadline
        }
        guard let seconds = Double(text), seconds >= 0.1, seconds <= 600 else {
            throw TallyError.invalid("TALLY_POSTGRES_DEADLINE is a number of seconds from 0.1 to 600, not \(UserText.quoted(text)).")
        }
        return .milliseconds(Int(seconds * 1000))
    }
}

/// Where a command's tally is: a Tally server (--server, then TALLY_SERVER) with a token
/// (--token, then TALLY_TOKEN), or else the local database.
enum Remote {
    static func client(_ options: CommonOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APIClient? {
        func nonEmpty(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        guard let server = nonEmpty(options.server) ?? nonEmpty(environment["TALLY_SERVER"]) else {
            if options.token != nil {
                throw TallyError.invalid("--token goes with --server URL (or TALLY_SERVER): name the server the token is for.")
            }
            return nil
        }
        guard let token = nonEmpty(options.token) ?? nonEmpty(environment["TALLY_TOKEN"]) else {
            throw TallyError(.unauthorized,
                             "Give an API token for \(server) with --token or TALLY_TOKEN; create one with `tally token create --user NAME` on the server.")
        }
        return try APIClient(server: server, token: token)
    }
}
