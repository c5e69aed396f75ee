import ArgumentParser
import Foundation
import TallyCore
import TallyRepositories
import TallyServices

struct TodayCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Show a day's total, goal and entries.")

    @Option(help: ArgumentHelp("Another day (YYYY-MM-DD).", valueName: "date"))
    var date: String?
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let day = try date.map(parseDate)
        let summary = try await context.backend.daySummary(on: day)
        // Without --date the summary is today's, by the clock of whoever keeps the tally.
        let isToday = day == nil || summary.date == context.today
        try emit(summary, context) { TextRendering.day(summary, context, isToday: isToday) }
    }
}

struct HistoryCommand: TallyCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show the last days, a month's calendar and your streaks.")

    @Option(help: ArgumentHelp("How many days of bars (default 7).", valueName: "n"))
    var days = 7
    @Option(help: ArgumentHelp("The calendar's month (YYYY-MM, default this month).", valueName: "month"))
    var month: String?
    @OptionGroup var options: CommonOptions

    func run(in context: CommandContext) async throws {
        let month = try month.map { text in
            guard let month = YearMonth(text) else {
                throw TallyError.invalid("\"\(text)\" is not a month: write it as YYYY-MM, such as 2025-03.")
            }
            return month
        }
        let history = try await context.backend.history(days: days, month: month)
        try emit(history, context) { TextRendering.history(history, context.unit) }
    }
}

func parseDate(_ text: String) throws -> LocalDate {
    try LocalDate.parse(text)
}
