import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// Age, weight and activity as typed, checked by TallyCore's Profile.
struct ProfileOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Age in years (10–120).", valueName: "years"))
    var age: Int
    @Option(help: ArgumentHelp("Weight in kg (30–300).", valueName: "kg"))
    var weight: String
    @Option(help: ArgumentHelp("Activity: \(ActivityLevel.names).", valueName: "level"))
    var activity: String

    func profile() throws -> Profile {
        guard let level = ActivityLevel(typed: activity) else {
            throw TallyError.invalid("\"\(activity)\" is not an activity level; choose one of \(ActivityLevel.names).")
        }
        return try Profile(age: age, weightKg: try number(weight, Phrase("Weight")), activity: level)
    }
}

struct GoalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Show, set or calculate the daily goal.",
        subcommands: [Show.self, Set.self, Auto.self, None.self, Calc.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the goal, how it is computed and its history.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.goalStatus()
            try emit(status, context) { TextRendering.goal(status, context.unit) }
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a custom goal, overriding the computed one.")
        @Argument(help: ArgumentHelp("The daily goal (a bare number is in your unit).", valueName: "amount"))
        var amount: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.setGoal(.custom(ml: try context.milliliters(amount)))
            try emit(status, context) { TextRendering.goal(status, context.unit) }
        }
    }

    struct Auto: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "auto", abstract: "Compute the goal from the profile (2500 ml without one).")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.setGoal(.automatic)
            try emit(status, context) { TextRendering.goal(status, context.unit) }
        }
    }

    struct None: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "none", abstract: "Track without a goal: only totals are shown.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.setGoal(.none)
            try emit(status, context) { TextRendering.goal(status, context.unit) }
        }
    }

    struct Calc: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "calc", abstract: "Calculate a goal for a profile, without saving anything.")
        @OptionGroup var profile: ProfileOptions
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let breakdown = try await context.backend.calculateGoal(for: try profile.profile())
            try emit(breakdown, context) { TextRendering.breakdown(breakdown, context.unit) }
        }
    }
}

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or set age, weight and activity (they compute the goal).",
        subcommands: [Show.self, Set.self, Clear.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the profile.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.goalStatus()
            try emit(status, context) { TextRendering.profile(status, context.unit) }
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the profile; an automatic goal follows it from today.")
        @OptionGroup var profile: ProfileOptions
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.setProfile(try profile.profile())
            try emit(status, context) { TextRendering.profile(status, context.unit) }
        }
    }

    struct Clear: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Forget the profile (an automatic goal goes back to 2500 ml).")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let status = try await context.backend.setProfile(nil)
            try emit(status, context) { TextRendering.profile(status, context.unit) }
        }
    }
}
