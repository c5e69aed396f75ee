import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Reminder settings and the calendar feed (H11).
struct ReminderController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.reminders, use: show)
        group.on(API.saveReminders, use: save)
        group.on(API.createCalendar, use: createCalendar)
        group.on(API.revokeCalendar, use: revokeCalendar)
    }

    @Sendable func show(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<RemindersView> {
        JSONBody(try await services.hydration(context).reminders())
    }

    @Sendable func save(_ settings: ReminderSettings, _ request: Request, context: SignedInContext) async throws -> JSONBody<RemindersView> {
        JSONBody(try await services.hydration(context).saveReminders(settings))
    }

    /// A new secret address for the feed, shown this once; it replaces any earlier one.
    @Sendable func createCalendar(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<CalendarLink> {
        let secret = try await services.accounts.newCalendarSecret(of: context.user)
        return JSONBody(CalendarLink(path: CalendarFeedController.path(secret)), status: .created)
    }

    @Sendable func revokeCalendar(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<NoBody> {
        try await services.accounts.revokeCalendarSecret(of: context.user)
        return .empty()
    }
}
