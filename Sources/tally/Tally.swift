import ArgumentParser

@main
struct Tally: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Keeps a daily tally of the water you drink.",
        discussion: """
            Works on a local SQLite database: \(DatabaseLocation.defaultDescription) unless --database \
            or TALLY_DATABASE names another. A local profile is created on first use.
            Every command takes --json and then prints one JSON document. Errors go to stderr \
            with a non-zero exit code: 1 for input Tally refuses, 2 for something that does not \
            exist, 3 for a change that clashes with what is stored, 4 for a wrong
            password or token, 5 for too many tries.
            """,
        version: "0.1.0",
        subcommands: [
            DrinkCommand.self, RemoveCommand.self, DeleteCommand.self, EditCommand.self,
            TodayCommand.self, HistoryCommand.self,
            GoalCommand.self, ProfileCommand.self, KindsCommand.self, PresetsCommand.self, SettingsCommand.self,
            ServeCommand.self, UserCommand.self, TokenCommand.self,
        ]
    )
}
