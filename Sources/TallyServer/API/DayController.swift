import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// A day's summary and the history (H2, H9, H12).
struct DayController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("today", use: today)
        group.get("days/:date", use: day)
        group.get("history", use: history)
    }

    @Sendable func today(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DaySummary> {
        JSONBody(try await services.hydration(context).daySummary())
    }

    @Sendable func day(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<DaySummary> {
        let hydration = try services.hydration(context)
        let text = context.parameters.get("date") ?? ""
        guard let date = LocalDate(text) else {
            throw TallyError.invalid("\"\(text)\" is not a date: write it as YYYY-MM-DD, such as 2025-03-30.")
        }
        return JSONBody(try await hydration.daySummary(on: date))
    }

    @Sendable func history(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<HydrationHistory> {
        let hydration = try services.hydration(context)
        let days = try request.query("days", Int.init, form: "a whole number") ?? 7
        let month = try request.query("month", YearMonth.init, form: "a month like 2025-03")
        return JSONBody(try await hydration.history(days: days, month: month))
    }
}
