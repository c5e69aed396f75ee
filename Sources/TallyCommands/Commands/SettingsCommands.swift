import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

struct KindsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinds", abstract: "List and manage drink kinds and their hydration factors.",
        subcommands: [List.self, Add.self, Rename.self, Retire.self, Factor.self, Factors.self],
        defaultSubcommand: List.self)

    struct List: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the drink kinds.")
        @Flag(help: "Include retired kinds.") var all = false
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let kinds = try await context.backend.drinkKinds().filter { all || !$0.isRetired }
            try emit(kinds, context) { TextRendering.kinds(kinds) }
        }
    }

    struct Add: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a drink kind.")
        @Argument(help: ArgumentHelp("Its name.", valueName: "name")) var name: String
        @Option(help: ArgumentHelp("Its hydration factor, 0–1.5 (default 1).", valueName: "f")) var factor = "1"
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let kind = try await context.backend.addDrinkKind(name: name, factor: try number(factor, Phrase("The factor")))
            try emit(kind, context) { t("Added \(kind.name) (factor \(kind.factor)).") }
        }
    }

    struct Rename: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a kind you added.")
        @Argument(help: ArgumentHelp("Its name.", valueName: "name")) var name: String
        @Argument(help: ArgumentHelp("The new name.", valueName: "new-name")) var newName: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let kind = try await context.backend.renameDrinkKind(name, to: newName)
            try emit(kind, context) { t("Renamed \(name) to \(kind.name).") }
        }
    }

    struct Retire: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "retire", abstract: "Retire a kind you added (past drinks keep it).")
        @Argument(help: ArgumentHelp("Its name.", valueName: "name")) var name: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let kind = try await context.backend.retireDrinkKind(name)
            try emit(kind, context) { t("Retired \(kind.name).") }
        }
    }

    struct Factor: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "factor", abstract: "Set a kind's factor (new drinks only).")
        @Argument(help: ArgumentHelp("Its name.", valueName: "name")) var name: String
        @Argument(help: ArgumentHelp("The factor, 0–1.5.", valueName: "f")) var factor: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let kind = try await context.backend.setFactor(of: name, to: try number(factor, Phrase("The factor")))
            try emit(kind, context) { t("\(kind.name) now counts \(kind.factor) × its volume.") }
        }
    }

    struct Factors: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "factors", abstract: "Give the built-in kinds a set of factors: standard, or bhi (Beverage Hydration Index).")
        @Argument(help: ArgumentHelp("standard or bhi.", valueName: "set")) var set: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard let factorSet = DrinkFactorSet(rawValue: set.lowercased()) else {
                throw TallyError.invalid("\"\(set)\" is not a factor set; choose standard or bhi.")
            }
            let kinds = try await context.backend.useFactors(factorSet).filter { !$0.isRetired }
            try emit(kinds, context) { TextRendering.kinds(kinds) }
        }
    }
}

struct PresetsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presets", abstract: "Show or set the 3–4 quick-add amounts.",
        subcommands: [Show.self, Set.self, Reset.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the presets.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let presets = context.settings.presets
            try emit(presets, context) { TextRendering.presets(presets, context.unit) }
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set 3 or 4 presets (bare numbers are in your unit).")
        @Argument(help: ArgumentHelp("The amounts.", valueName: "amount")) var amounts: [String]
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let settings = try await context.backend.setPresets(try amounts.map(context.milliliters))
            try emit(settings.presets, context) { TextRendering.presets(settings.presets, context.unit) }
        }
    }

    struct Reset: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Go back to the defaults of your unit.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let settings = try await context.backend.setPresets(nil)
            try emit(settings.presets, context) { TextRendering.presets(settings.presets, context.unit) }
        }
    }
}

struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show or change the unit and the time zone.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the settings.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            try emit(context.settings, context) { TextRendering.settings(context.settings) }
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set one setting: unit (ml or oz) or timezone (an IANA name such as Europe/Berlin).")
        @Argument(help: ArgumentHelp("unit or timezone.", valueName: "name")) var name: String
        @Argument(help: ArgumentHelp("The new value.", valueName: "value")) var value: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let settings: HydrationSettings
            switch name.lowercased() {
            case "unit":
                guard let unit = VolumeUnit(typed: value) else {
                    throw TallyError.invalid("\"\(value)\" is not a unit; choose ml or oz.")
                }
                settings = try await context.backend.setUnit(unit)
            case "timezone", "time-zone", "tz":
                settings = try await context.backend.setTimeZone(value)
            default:
                throw TallyError.invalid("\"\(name)\" is not a setting; set unit or timezone.")
            }
            try emit(settings, context) { TextRendering.settings(settings) }
        }
    }
}
