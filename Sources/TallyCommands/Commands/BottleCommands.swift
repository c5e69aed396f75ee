import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

struct BottleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bottle", abstract: "Drink from your water bottle: sip, refill, set its size.",
        discussion: "A sip logs its amount as water from the bottle; setting the level (a refill, a spill) logs nothing.",
        subcommands: [Show.self, Sip.self, Set.self, Fill.self, Capacity.self, SipSize.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show what is left in the bottle.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let bottle = try await context.backend.bottle()
            try emit(bottle, context) { BottleText.bottle(bottle, context.unit) }
        }
    }

    struct Sip: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "sip", abstract: "Take a sip: the level drops and the sip is logged.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let result = try await context.backend.sip()
            try emit(result, context) {
                guard case .intake(let intake) = result.sip else { return BottleText.bottle(result.bottle, context.unit) }
                let drunk = context.format(intake.volumeMl)
                return t("Sipped \(drunk).") + "\n" + BottleText.bottle(result.bottle, context.unit)
            }
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set how much is in the bottle (after a refill or a spill).")
        @Argument(help: ArgumentHelp("The level (a bare number is in your unit).", valueName: "level"))
        var level: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let bottle = try await context.backend.adjustBottle(capacityMl: nil, levelMl: try context.milliliters(level), sipMl: nil)
            try emit(bottle, context) { BottleText.bottle(bottle, context.unit) }
        }
    }

    struct Fill: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "fill", abstract: "Fill the bottle up.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let bottle = try await context.backend.fillBottle()
            try emit(bottle, context) { BottleText.bottle(bottle, context.unit) }
        }
    }

    struct Capacity: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "capacity", abstract: "Set how much the bottle holds (at most 5000 ml).")
        @Argument(help: ArgumentHelp("The capacity (a bare number is in your unit).", valueName: "amount"))
        var amount: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let bottle = try await context.backend.adjustBottle(capacityMl: try context.milliliters(amount), levelMl: nil, sipMl: nil)
            try emit(bottle, context) { BottleText.bottle(bottle, context.unit) }
        }
    }

    struct SipSize: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "sip-size", abstract: "Set how much a sip is.")
        @Argument(help: ArgumentHelp("The sip (a bare number is in your unit).", valueName: "amount"))
        var amount: String
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let bottle = try await context.backend.adjustBottle(capacityMl: nil, levelMl: nil, sipMl: try context.milliliters(amount))
            try emit(bottle, context) { BottleText.bottle(bottle, context.unit) }
        }
    }
}

enum BottleText {
    /// "640 ml left of 1000 ml  [██████░░░░]  sip 30 ml".
    static func bottle(_ bottle: Bottle, _ unit: VolumeUnit) -> String {
        let filled = Int((bottle.fraction * 10).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
        let (level, capacity, sip) = (Said.volume(bottle.levelMl, unit), Said.volume(bottle.capacityMl, unit), Said.volume(bottle.sipMl, unit))
        return t("\(level) left of \(capacity)  [\(bar)]  sip \(sip)")
    }
}
