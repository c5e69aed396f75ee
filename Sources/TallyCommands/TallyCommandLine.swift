import ArgumentParser
import Foundation
import TallyLanguages

/// The `tally` command as both executables describe and start it: `tally`, which runs a
/// person's own tallies on the local SQLite file, and `tally-server`, which runs every command
/// (the server, accounts, PostgreSQL, and the same commands against a server).
package enum TallyCommandLine {
    package static func configuration(subcommands: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "tally",
            abstract: "Keeps two daily tallies: the water you drink, and who paid for what.",
            discussion: """
                Works on a local SQLite database: \(StoreLocation.defaultDescription) unless --database \
                or TALLY_DATABASE names another. A local profile is created on first use.
                With --server URL and --token TOKEN (or TALLY_SERVER and TALLY_TOKEN) the same commands \
                work on a Tally server through its API instead, with the same output.
                Every command takes --json and then prints one JSON document. Errors go to stderr \
                with a non-zero exit code: 1 for input Tally refuses, 2 for something that does not \
                exist, 3 for a change that clashes with what is stored, 4 for a wrong
                password or token, 5 for too many tries, 6 for a server that cannot be reached.
                """,
            version: "0.1.0",
            subcommands: subcommands
        )
    }

    /// A person's own tallies, kept locally or on a server, in the order of `tally --help`.
    package static let own: [any ParsableCommand.Type] = [
        DrinkCommand.self, RemoveCommand.self, DeleteCommand.self, EditCommand.self,
        TodayCommand.self, HistoryCommand.self, BottleCommand.self,
        GoalCommand.self, ProfileCommand.self, KindsCommand.self, PresetsCommand.self, SettingsCommand.self,
        RemindersCommand.self,
        LedgerCommand.self, SpendCommand.self, PayCommand.self, BalanceCommand.self, SettleCommand.self, ExpensesCommand.self, RecurringCommand.self,
        ImportCommand.self, ExportCommand.self, RestoreCommand.self,
    ]

    /// A server's SQLite file copied and put back.
    package static let serverFiles: [any ParsableCommand.Type] = [BackupCommand.self, RestoreServerCommand.self]

    /// The names `tally` runs itself.
    package static let localNames: Set<String> = Set((own + serverFiles).flatMap { command in
        [command.configuration.commandName].compactMap { $0 } + command.configuration.aliases
    })

    /// This process's arguments, the options every command takes moved after the command's name.
    package static func arguments() -> [String] { CommonOptionsFirst.moved(Array(CommandLine.arguments.dropFirst())) }

    /// Runs `root` on `arguments`, in the terminal's language (LC_ALL, LC_MESSAGES, LANG; English
    /// for C or none): its sentences, and the numbers and days of its text. `--json` stays English.
    package static func run<Root: AsyncParsableCommand>(_ root: Root.Type, _ arguments: [String] = arguments()) async {
        // English is `Written.current` already.
        guard let written = Said.terminal else { return await root.main(arguments) }
        await Written.$current.withValue(written) { await root.main(arguments) }
    }
}

/// `tally --server URL --token TOKEN today`: the options every command takes may also come
/// before the command's name. They are moved after it, where the command reads them.
enum CommonOptionsFirst {
    static let withValue: Set<String> = ["--server", "--token", "--database", "--user", "--unit"]
    static let flags: Set<String> = ["--json"]

    static func moved(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) || (withValue.contains(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if withValue.contains(argument), index + 1 < arguments.endIndex {
                leading += arguments[index...index + 1]
                index += 2
            } else {
                break
            }
        }
        // Nothing moved, or nothing left to name a command: let the parser say what is wrong.
        guard !leading.isEmpty, index < arguments.endIndex else { return arguments }
        var rest = Array(arguments[index...])
        // Options after "--" would be read as words.
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
