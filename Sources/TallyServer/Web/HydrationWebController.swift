import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The today screen, past days and history (H1–H3, H9). Every action works as a plain form post
/// followed by a redirect; app.js makes the same actions through the JSON API and updates the
/// page in place.
struct HydrationWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.today, use: today)
        web.get(SitePath.day, use: day)
        web.post(SitePath.drinks, use: logDrink)
        web.post(SitePath.removals, use: remove)
        web.post(SitePath.entries, use: logCustom)
        web.post(SitePath.deleteEntry, use: delete)
        web.get(SitePath.editEntry, use: editDrink)
        web.post(SitePath.editEntry, use: saveDrink)
        web.get(SitePath.history, use: history)
        QuickAddWebController(services: services).addRoutes(to: web)
    }

    // MARK: - A day

    @Sendable func today(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await dayPage(nil, request, context)
    }

    @Sendable func day(_ request: Request, context: SignedInPageContext) async throws -> Response {
        guard let date = context.parameters.get("date").flatMap(LocalDate.init) else {
            return Web.redirect(SitePath.history.link)
        }
        return try await dayPage(date, request, context)
    }

    private func dayPage(_ date: LocalDate?, _ request: Request, _ context: SignedInPageContext,
                         error: TallyError? = nil, custom: TodayPage.CustomInput? = nil) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        let settings = try await hydration.settings()
        let today = LocalDate(containing: services.clock.now, in: settings.zone)
        // Read before the day, so that a change made in between shows on the next event, not never.
        let revision = try await hydration.dayRevision(on: date ?? today)
        let shown = date ?? today
        let kinds = try await hydration.drinkKinds()
        // The quick-add buttons' kind, when the link chose one that is there to drink.
        let chosen = request.uri.queryParameters.get("kind").flatMap { name in
            kinds.first { !$0.isRetired && $0.name.caseInsensitiveCompare(name) == .orderedSame }?.name
        }
        let page = TodayPage(day: try await hydration.daySummary(on: shown), settings: settings,
                             kinds: kinds, today: today, revision: revision,
                             loggedAt: shown == today ? nil : Self.instant(on: shown, today: today, now: services.clock.now, zone: settings.zone),
                             quickKind: chosen ?? DrinkKind.defaultName)
        return Web.html(page.render(Web.pageContext(request, context), error: error?.said, custom: custom), status: Web.status(of: error))
    }

    @Sendable func logDrink(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await dayAction(request, context) { form, hydration in
            _ = try await hydration.logDrink(.init(volumeMl: try form.number("volumeMl", Phrase("the amount")), kindName: form["kind"],
                                                   at: try Self.instant(form)))
        }
    }

    @Sendable func remove(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await dayAction(request, context) { form, hydration in
            _ = try await hydration.remove(volumeMl: try form.number("volumeMl", Phrase("the amount")), at: try Self.instant(form))
        }
    }

    /// The moment a past day's page logs at (its forms carry it); nil for now.
    static func instant(_ form: FormFields) throws -> Date? {
        guard let text = form["at"], !text.isEmpty else { return nil }
        guard let instant = ISO8601DateFormatter().date(from: text) else {
            throw TallyError.invalid("The time \(UserText.quoted(text)) is not a moment Tally can read; reload the page and try again.")
        }
        return instant
    }

    /// The moment a custom amount is logged at: the time typed with it ("14:30") on the page's
    /// day, in the person's zone; else the page's own moment (`at`), else now.
    static func typedInstant(_ form: FormFields, zone: TimeZone, now: Date) throws -> Date? {
        let pageMoment = try instant(form)
        guard let time = form["time"] else { return pageMoment }
        let day = LocalDate(containing: pageMoment ?? now, in: zone)
        return try EntryTime.instant(from: "\(day) \(time)", now: now, zone: zone)
    }

    /// What a past day's page logs at: that day, at the time of day it is now (within the day,
    /// also across a change of clocks).
    static func instant(on day: LocalDate, today: LocalDate, now: Date, zone: TimeZone) -> Date {
        let start = day.start(in: zone)
        let end = day.adding(days: 1).start(in: zone).addingTimeInterval(-60)
        return min(max(start.addingTimeInterval(now.timeIntervalSince(today.start(in: zone))), start), end)
    }

    /// The custom amount: typed in the user's unit, added or removed.
    @Sendable func logCustom(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await dayAction(request, context, keepsCustom: true) { form, hydration in
            // The unit chosen beside the field; one typed with the number ("8oz") wins.
            let settings = try await hydration.settings()
            let unit = form["unit"].flatMap(VolumeUnit.init(rawValue:)) ?? settings.unit
            let ml = try VolumeInput.milliliters(from: try form.requireNumeral("amount", Phrase("the amount")), defaultUnit: unit)
            let at = try Self.typedInstant(form, zone: settings.zone, now: services.clock.now)
            let id = form["id"].flatMap(UUID.init(uuidString:))
            if form["mode"] == "remove" {
                _ = try await hydration.remove(volumeMl: ml, at: at, id: id)
            } else {
                _ = try await hydration.logDrink(.init(volumeMl: ml, kindName: form["kind"], at: at, id: id))
            }
        }
    }

    /// Asks first (a page to confirm), then deletes; a refused deletion shows the entry's day.
    @Sendable func delete(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let form = try await Web.checkedForm(request, context)
        let hydration = services.hydration(for: context.user)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let entry = try await hydration.entry(id: id) else {
            return try await dayPage(nil, request, context, error: .notFound("That entry no longer exists."))
        }
        guard form["confirm"] == "yes" else {
            return Web.html(TodayPage.confirmDelete(Web.pageContext(request, context), entry: entry, unit: try await hydration.settings().unit))
        }
        do {
            _ = try await hydration.deleteEntry(id: id)
        } catch let error as TallyError {
            return try await dayPage(entry.day, request, context, error: error)
        }
        return Web.redirect(SitePath.today.link)
    }

    /// A form of the today screen: done, then back to the day. A refused custom amount
    /// (`keepsCustom`) comes back open with what was typed, to correct.
    private func dayAction(_ request: Request, _ context: SignedInPageContext, keepsCustom: Bool = false,
                           _ action: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context) { form in
            let hydration = services.hydration(for: context.user)
            try await action(form, hydration)
            // Back to the day it logged to: a past day's page stays on that day.
            let zone = try await hydration.settings().zone
            let day = try Self.typedInstant(form, zone: zone, now: services.clock.now).map { LocalDate(containing: $0, in: zone) }
            let today = LocalDate(containing: services.clock.now, in: zone)
            return Web.redirect(day.map { $0 == today ? SitePath.today.link : SitePath.day.link($0) } ?? SitePath.today.link)
        } refused: { form, refusal in
            let custom = keepsCustom
                ? TodayPage.CustomInput(amount: form["amount"] ?? "", remove: form["mode"] == "remove", kind: form["kind"],
                                        unit: form["unit"].flatMap(VolumeUnit.init(rawValue:)), time: form["time"], error: refusal.error.said)
                : nil
            return try await dayPage(nil, request, context, error: refusal.error, custom: custom)
        }
    }

    // MARK: - History

    @Sendable func history(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let hydration = services.hydration(for: context.user)
        let month = request.uri.queryParameters.get("month").flatMap(YearMonth.init)
        let page = HistoryPage(history: try await hydration.history(days: 7, month: month), unit: try await hydration.settings().unit)
        return Web.html(page.render(Web.pageContext(request, context)))
    }
}
