import ArgumentParser
import Foundation
import TallyCore

/// Options every command takes.
package struct CommonOptions: ParsableArguments {
    package init() {}

    @Option(name: .long, help: ArgumentHelp("The SQLite database file, or a PostgreSQL database as postgres://user:password@host/name (env: TALLY_DATABASE, or TALLY_DATABASE_URL for PostgreSQL).", valueName: "path-or-url"))
    package var database: String?

    @Option(name: .long, help: ArgumentHelp("Whose tally to use (env: TALLY_USER; default: local).", valueName: "name"))
    package var user: String?

    @Option(name: .long, help: ArgumentHelp(
        "Work on a Tally server through its API instead of a local database (env: TALLY_SERVER); --database and --user are then not used.",
        valueName: "url"))
    package var server: String?

    @Option(name: .long, help: ArgumentHelp(
        "A personal API token for --server (env: TALLY_TOKEN, which other users of this machine cannot see); create one with `tally token create`.",
        valueName: "token"))
    package var token: String?

    @Option(name: .long, help: ArgumentHelp("Show and read volumes in this unit for this command (ml or oz).", valueName: "unit"))
    package var unit: VolumeUnitArgument?

    @Flag(name: .long, help: "Print one JSON document instead of text.")
    package var json = false
}

package struct VolumeUnitArgument: ExpressibleByArgument {
    package let unit: VolumeUnit
    package init?(argument: String) {
        guard let unit = VolumeUnit(typed: argument) else { return nil }
        self.unit = unit
    }
}
