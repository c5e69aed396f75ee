import ArgumentParser
import Foundation
import TallyLanguages

@main
struct Tally: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
        subcommands: [
            DrinkCommand.self, RemoveCommand.self, DeleteCommand.self, EditCommand.self,
            TodayCommand.self, HistoryCommand.self, BottleCommand.self,
            GoalCommand.self, ProfileCommand.self, KindsCommand.self, PresetsCommand.self, SettingsCommand.self,
            RemindersCommand.self,
            LedgerCommand.self, SpendCommand.self, PayCommand.self, BalanceCommand.self, SettleCommand.self, ExpensesCommand.self, RecurringCommand.self,
            ImportCommand.self, ExportCommand.self, RestoreCommand.self,
            ServeCommand.self, UserCommand.self, TokenCommand.self, ServerAdminCommand.self, BackupCommand.self, RestoreServerCommand.self, MigrateStoreCommand.self,
        ]
    )

    /// Every command runs here, in the terminal's language (LC_ALL, LC_MESSAGES, LANG; English
    /// for C or none): its sentences, and the numbers and days of its text. `--json` stays English.
    static func main() async {
        let arguments = CommonOptionsFirst.moved(Array(CommandLine.arguments.dropFirst()))
        // English is `Written.current` already.
        guard let written = Said.terminal else { return await Self.main(arguments) }
        await Written.$current.withValue(written) { await Self.main(arguments) }
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
