import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// A day's summary and the history (H2, H9, H12).
struct DayController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.today, use: today)
        group.on(API.day, use: day)
        group.on(API.history, use: history)
        group.on(API.dayChanges, use: dayChanges)
    }

    /// The day's revision, or a stream of it while the day's page is open.
    @Sendable func dayChanges(_ request: Request, context: SignedInContext) async throws -> Response {
        let (hydration, date) = (services.hydration(context), try Self.date(context))
        return try await services.changes.response(to: request, context: context, following: .day(user: context.user.id, date)) {
            try await hydration.dayRevision(on: date)
        }
    }

    @Sendable func today(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<DaySummary> {
        JSONBody(try await services.hydration(context).daySummary())
    }

    @Sendable func day(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<DaySummary> {
        JSONBody(try await services.hydration(context).daySummary(on: try Self.date(context)))
    }

    /// The path's `{date}`.
    static func date(_ context: SignedInContext) throws -> LocalDate {
        try LocalDate.parse(context.parameters.get("date") ?? "")
    }

    @Sendable func history(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<HydrationHistory> {
        let days = try request.query("days", Int.init, form: Phrase("a whole number")) ?? 7
        let month = try request.query("month", YearMonth.init, form: Phrase("a month like 2025-03"))
        return JSONBody(try await services.hydration(context).history(days: days, month: month))
    }
}
