import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Reminder settings and the calendar feed (H11).
struct ReminderController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("reminders", use: show)
        group.put("reminders", use: save)
        group.post("reminders/calendar", use: createCalendar)
        group.delete("reminders/calendar", use: revokeCalendar)
    }

    @Sendable func show(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<RemindersJSON> {
        let hydration = try services.hydration(context)
        return JSONBody(try await RemindersJSON(try await hydration.reminderSettings(), hydration: hydration))
    }

    @Sendable func save(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<RemindersJSON> {
        let hydration = try services.hydration(context)
        let settings = try await request.decodeJSON(ReminderSettings.self, context: context)
        return JSONBody(try await RemindersJSON(try await hydration.saveReminderSettings(settings), hydration: hydration))
    }

    /// A new secret address for the feed, shown this once; it replaces any earlier one.
    @Sendable func createCalendar(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<CalendarLink> {
        let user = try context.requireUser()
        let secret = AccountService.newSecret()
        try await services.store.setCalendarSecret(hash: AccountService.hash(secret), of: user.id)
        return JSONBody(CalendarLink(path: CalendarFeedController.path(secret)), status: .created)
    }

    @Sendable func revokeCalendar(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let user = try context.requireUser()
        try await services.store.setCalendarSecret(hash: nil, of: user.id)
        return Response(status: .noContent)
    }
}

/// The settings as saved, with the windows they lead to: the one from the sleep records of the
/// last 7 days (null without any) and the one the reminders follow now.
struct RemindersJSON: Encodable {
    var settings: ReminderSettings
    var sleepRecordWindow: WakeWindow?
    var followedWindow: WakeWindow

    init(_ settings: ReminderSettings, hydration: HydrationService) async throws {
        self.settings = settings
        sleepRecordWindow = try await hydration.sleepRecordWindow()
        followedWindow = settings.followedWindow(sleepRecords: sleepRecordWindow)
    }

    private enum CodingKeys: String, CodingKey { case sleepRecordWindow, followedWindow }

    func encode(to encoder: any Encoder) throws {
        try settings.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sleepRecordWindow, forKey: .sleepRecordWindow)
        try container.encode(followedWindow, forKey: .followedWindow)
    }
}

struct CalendarLink: Encodable {
    /// Where the feed is, on this server: subscribe to it from a calendar app.
    var path: String
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
