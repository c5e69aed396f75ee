import ArgumentParser
import TallyCommands

/// `tally`: a person's own tallies on the local SQLite file, linked with nothing else, so that a
/// command such as `tally today` starts quickly. Everything else (`--help`, the server and its
/// accounts, PostgreSQL, a server's API) it hands to `tally-server`, installed beside it, which
/// runs every command.
@main
enum Start {
    static func main() {
        let arguments = TallyCommandLine.arguments()
        if let name = arguments.first, name == "--version" || TallyCommandLine.localNames.contains(name) {
            OneThread.run { await TallyCommandLine.run(Tally.self, arguments) }
        }
        do {
            try reportingErrors { try HandOff.toServerBinary() }
        } catch {
            Tally.exit(withError: error)
        }
    }
}

struct Tally: AsyncParsableCommand {
    static let configuration = TallyCommandLine.configuration(
        subcommands: TallyCommandLine.own + TallyCommandLine.serverFiles)
}
