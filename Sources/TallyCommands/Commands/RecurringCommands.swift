import ArgumentParser
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

struct RecurringCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recurring", abstract: "Expenses a ledger records by itself: rent, subscriptions.",
        discussion: """
            Each is recorded as an ordinary expense on its day, counted in the time zone it was set up in \
            (yours): by the server, or, on a local database, by the next spending command you run.
            """,
        subcommands: [List.self, Add.self, Pause.self, Resume.self, End.self, Delete.self], defaultSubcommand: List.self)

    struct List: TallyCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the ledger's recurring expenses, the soonest first.")
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            let expenses = try await context.spending.recurringExpenses(in: ledger.id)
            try emit(expenses, context) { RecurringText.list(expenses, ledger) }
        }
    }

    struct Add: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Set up an expense that repeats every week, month or year.",
            discussion: """
                --on is the weekday for --every week (monday … sunday, or 1–7), the day of the month for \
                --every month (1–31: a day a month lacks falls on its last day), and MM-DD for --every year \
                (02-29 falls on 28 February in other years). Without --on, the day of --from (or of today). \
                The split takes the options of `tally spend`.
                """)
        @Argument(help: ArgumentHelp("How much, in the ledger's currency (800.00).", valueName: "amount"))
        var amount: String
        @Argument(help: ArgumentHelp("What it is for.", valueName: "description"))
        var description: [String] = []
        @Option(help: ArgumentHelp("week, month or year.", valueName: "period"))
        var every: FrequencyArgument
        @Option(help: ArgumentHelp("The weekday, day of the month, or MM-DD of the year it falls on.", valueName: "day"))
        var on: String?
        @Option(help: ArgumentHelp("The first day it may fall on, YYYY-MM-DD (default: today).", valueName: "date"))
        var from: String?
        @Option(help: ArgumentHelp("The last day it may fall on, YYYY-MM-DD (default: none).", valueName: "date"))
        var until: String?
        @OptionGroup var payers: PayerOptions
        @Option(help: ArgumentHelp("A category.", valueName: "name"))
        var category: String?
        @OptionGroup var split: SplitOptions
        @OptionGroup var ledger: LedgerOption
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let ledger = try await context.ledger(ledger)
            let start = try from.map(parseDate)
            let rule = try on.map { try RecurringText.rule(every.frequency, on: $0) }
                ?? RecurrenceRule(every: every.frequency, like: start ?? context.today)
            let (payer, several) = try payers.payers(ledger)
            let expense = try await context.spending.addRecurringExpense(to: ledger.id, NewRecurringExpense(
                amount: .text(amount), payer: several == nil ? try payer ?? ownMember(ledger) : nil, payers: several,
                description: description.isEmpty ? nil : description.joined(separator: " "), category: category,
                split: try split.body(ledger), repeat: RepeatBody(rule), startDate: start, endDate: try until.map(parseDate),
                timeZone: nil))
            try emit(expense, context) { t("Set up \(RecurringText.line(expense, ledger)).") }
        }
    }

    struct Pause: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "pause", abstract: "Pause a recurring expense: nothing is recorded until it is resumed.")
        @OptionGroup var target: RecurringTarget
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            try await target.change(context, saying: { t("Paused \($0).") }) { _ in RecurringExpenseChange(paused: true) }
        }
    }

    struct Resume: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume", abstract: "Resume a paused recurring expense, from its next day on (what fell meanwhile is skipped).")
        @OptionGroup var target: RecurringTarget
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            try await target.change(context, saying: { t("Resumed \($0).") }) { _ in RecurringExpenseChange(paused: false) }
        }
    }

    struct End: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "end", abstract: "End a recurring expense after today, or after the day --on names; the expenses it recorded stay.")
        @OptionGroup var target: RecurringTarget
        @Option(help: ArgumentHelp("Its last day, YYYY-MM-DD (default: today).", valueName: "date"))
        var on: String?
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let last = try on.map(parseDate)
            try await target.change(context, saying: { t("Ended \($0).") }) { found in
                // Today where the expense counts its days.
                let zone = TimeZone(identifier: found.timeZone) ?? context.settings.zone
                return RecurringExpenseChange(endDate: .set(last ?? LocalDate(containing: context.clock.now, in: zone)))
            }
        }
    }

    struct Delete: TallyCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a recurring expense; the expenses it recorded stay.")
        @OptionGroup var target: RecurringTarget
        @OptionGroup var options: CommonOptions

        func run(in context: CommandContext) async throws {
            let (ledger, found) = try await target.find(context)
            try await context.spending.deleteRecurringExpense(found.id, in: ledger.id)
            try emit(["deleted": found.id], context) { t("Deleted \(RecurringText.title(found)); the expenses it recorded stay.") }
        }
    }
}

/// The recurring expense a command names: by its description or its id's first characters, in
/// the ledger --ledger names.
struct RecurringTarget: ParsableArguments {
    @Argument(help: ArgumentHelp("Its description, or its id's first characters.", valueName: "expense"))
    var expense: String
    @OptionGroup var ledger: LedgerOption

    func find(_ context: CommandContext) async throws -> (LedgerJSON, RecurringExpenseJSON) {
        let ledger = try await context.ledger(ledger)
        return (ledger, try RecurringText.find(expense, in: try await context.spending.recurringExpenses(in: ledger.id), ledger))
    }

    /// Applies the change `make` gives for the expense found, and says what it is now: `said` puts
    /// the expense's line in its sentence ("Paused \($0).").
    func change(_ context: CommandContext, saying said: (String) -> String,
                _ make: (RecurringExpenseJSON) throws -> RecurringExpenseChange) async throws {
        let (ledger, found) = try await find(context)
        let changed = try await context.spending.changeRecurringExpense(found.id, in: ledger.id, try make(found))
        try emit(changed, context) { said(RecurringText.line(changed, ledger)) }
    }
}

struct FrequencyArgument: ExpressibleByArgument {
    let frequency: RecurrenceRule.Frequency
    init?(argument: String) {
        guard let frequency = RecurrenceRule.Frequency(rawValue: argument.lowercased()) else { return nil }
        self.frequency = frequency
    }
    static var allValueStrings: [String] { RecurrenceRule.Frequency.allCases.map(\.rawValue) }
}
