import ArgumentParser
import Foundation
import TallyCore

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The SQLite database file, or a PostgreSQL database as postgres://user:password@host/name (env: TALLY_DATABASE, or TALLY_DATABASE_URL for PostgreSQL).", valueName: "path-or-url"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp("Whose tally to use (env: TALLY_USER; default: local).", valueName: "name"))
    var user: String?

    @Option(name: .long, help: ArgumentHelp(
        "Work on a Tally server through its API instead of a local database (env: TALLY_SERVER); --database and --user are then not used.",
        valueName: "url"))
    var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "A personal API token for --server (env: TALLY_TOKEN, which other users of this machine cannot see); create one with `tally token create`.",
        valueName: "token"))
    var token: String?

    @Option(name: .long, help: ArgumentHelp("Show and read volumes in this unit for this command (ml or oz).", valueName: "unit"))
    var unit: VolumeUnitArgument?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    var json = false
}

struct VolumeUnitArgument: ExpressibleByArgument {
    let unit: VolumeUnit
    init?(argument: String) {
        guard let unit = VolumeUnit(typed: argument) else { return nil }
        self.unit = unit
    }
}

/// Where a hydration command's tally is: a Tally server (--server, then TALLY_SERVER) with a
/// token (--token, then TALLY_TOKEN), or else the local database.
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
