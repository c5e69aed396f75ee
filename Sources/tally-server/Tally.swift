import ArgumentParser
import TallyCommands

/// `tally-server`: every command of `tally`, with what `tally` leaves to it (`tally serve`, the
/// accounts of a server's database, PostgreSQL, and the commands against a server's API). People
/// run `tally`, which becomes this when it needs to.
@main
struct Tally: AsyncParsableCommand {
    static let configuration = TallyCommandLine.configuration(
        subcommands: TallyCommandLine.own
            + [ServeCommand.self, UserCommand.self, TokenCommand.self, ServerAdminCommand.self]
            + TallyCommandLine.serverFiles + [MigrateStoreCommand.self])

    static func main() async {
        await Reach.$current.withValue(.everywhere) { await TallyCommandLine.run(Self.self) }
    }
}
