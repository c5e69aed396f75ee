import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyStore

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
        let hydration = services.hydration(context)
        return JSONBody(try await hydration.reminders(try await hydration.reminderSettings()))
    }

    @Sendable func save(_ settings: ReminderSettings, _ request: Request, context: SignedInContext) async throws -> JSONBody<RemindersView> {
        let hydration = services.hydration(context)
        return JSONBody(try await hydration.reminders(try await hydration.saveReminderSettings(settings)))
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

extension HydrationService {
    /// The reminder settings with the windows they lead to.
    func reminders(_ settings: ReminderSettings) async throws -> RemindersView {
        RemindersView(settings: settings, sleepRecordWindow: try await sleepRecordWindow())
    }
}

/// The calendar feed itself: its secret address is its only credential, so it needs no
/// session or token (a calendar app has neither).
struct CalendarFeedController {
    let services: APIServices

    static func path(_ secret: String) -> String { "/calendar/\(secret).ics" }

    func addRoutes(to router: Router<TallyRequestContext>) {
        router.get("calendar/:file", use: feed)
    }

    @Sendable func feed(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".ics"),
              let owner = try await services.store.calendarOwner(secretHash: AccountService.hash(String(file.dropLast(4)))) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "There is no calendar at this address: it may have been replaced or stopped.\n")))
        }
        let now = services.clock.now
        let zone = owner.settings.zone
        let reminders = try await services.store.followedReminders(owner.reminders, of: owner.user.id, now: now, zone: zone)
        let ics = CalendarFeed.ics(reminders, today: LocalDate(containing: now, in: zone).adding(days: -1), zone: zone,
                                   now: now, name: owner.user.name)
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: ics)))
    }
}
