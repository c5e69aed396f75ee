import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

struct RemindersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reminders", abstract: "Show or change the reminders: waking hours, how many, smart or fixed, sleep records.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the reminder settings, the waking hours they follow and the times still to come today.")
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let view = try await context.backend.reminders()
            try emit(view, context) { TextRendering.reminders(view, context.settings.zone) }
        }
    }

    enum Switch: String, EnumerableFlag {
        case on, off

        static func help(for value: Switch) -> ArgumentHelp? {
            value == .on ? "Turn the reminders on." : "Turn the reminders off."
        }
    }

    struct Set: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Change the reminder settings given; the others stay as they are.",
            discussion: """
                Reminders come --count times a day at fixed times spread over the waking hours, or, \
                with --smart HOURS, once after that many hours without a drink until the day's goal \
                is met. With --sleep-records the waking hours are those of the sleep records imported \
                from Apple Health in the last 7 days; --wake and --sleep apply while there are none.
                """)
        @Flag(exclusivity: .exclusive) var state: Switch?
        @Option(help: ArgumentHelp("When you wake up (HH:MM).", valueName: "HH:MM")) var wake: String?
        @Option(help: ArgumentHelp("When you go to sleep (HH:MM); may be after midnight.", valueName: "HH:MM")) var sleep: String?
        @Option(name: [.customLong("count"), .customLong("frequency")],
                help: ArgumentHelp("Fixed reminders a day (1–24).", valueName: "n")) var count: String?
        @Option(help: ArgumentHelp("Smart reminders: one after this many hours without a drink (1–6).", valueName: "hours"))
        var smart: String?
        @Flag(help: "Reminders at fixed times (not smart).") var fixed = false
        @Flag(inversion: .prefixedNo, help: "Follow the waking hours of the imported sleep records.")
        var sleepRecords: Bool?
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            guard state != nil || wake != nil || sleep != nil || count != nil || smart != nil || fixed || sleepRecords != nil else {
                throw TallyError.invalid(
                    "Say what to change: --on, --off, --wake, --sleep, --count, --smart, --fixed or --[no-]sleep-records.")
            }
            if smart != nil && fixed {
                throw TallyError.invalid("Reminders are either smart or at fixed times: give --smart or --fixed, not both.")
            }
            // Everything typed is read before anything is asked of the tally.
            let wakeTime = try wake.map { try Self.time($0, "--wake") }
            let sleepTime = try sleep.map { try Self.time($0, "--sleep") }
            let frequency = try count.map { try Self.integer($0, "--count") }
            let threshold = try smart.map { try Self.integer($0, "--smart") }

            var settings = try await context.backend.reminders().settings
            if let state { settings.enabled = state == .on }
            if let wakeTime { settings.window.wake = wakeTime }
            if let sleepTime { settings.window.sleep = sleepTime }
            if let frequency { settings.frequency = frequency }
            if let threshold { settings.smartThresholdHours = threshold }
            if fixed { settings.smartThresholdHours = nil }
            if let sleepRecords { settings.useSleepRecords = sleepRecords }
            // The service checks the values, as it does for the API and the web.
            let view = try await context.backend.saveReminders(settings)
            try emit(view, context) { TextRendering.reminders(view, context.settings.zone) }
        }

        static func time(_ text: String, _ option: String) throws -> TimeOfDay {
            guard let time = TimeOfDay(text) else {
                throw TallyError.invalid("\(option) takes a time such as 07:00; \"\(text)\" is not one.")
            }
            return time
        }

        static func integer(_ text: String, _ option: String) throws -> Int {
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw TallyError.invalid("\(option) takes a whole number; \"\(text)\" is not one.")
            }
            return value
        }
    }
}
