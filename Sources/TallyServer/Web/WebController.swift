import Foundation
import TallyAPI
import HTTPTypes
import Hummingbird
import TallyCore
import TallyStore

/// The web app's pages and forms. Every action works as a plain form post followed by a
/// redirect; app.js makes the same actions through the JSON API and updates the page in place.
struct WebController {
    let services: APIServices

    func addRoutes(to router: Router<TallyRequestContext>) {
        let web = router.group()
            .add(middleware: AuthenticationMiddleware(accounts: services.accounts))
            .add(middleware: CSRFCookieMiddleware())
        web.get("/", use: today)
        web.get("day/:date", use: day)
        web.post("drinks", use: logDrink)
        web.post("removals", use: remove)
        web.post("entries", use: logCustom)
        web.post("entries/:id/delete", use: delete)
        web.get("history", use: history)
        web.get("settings", use: settings)
        web.post("settings/profile", use: saveProfile)
        web.post("settings/goal", use: saveGoal)
        web.post("settings/general", use: saveGeneral)
        web.post("settings/presets", use: savePresets)
        web.post("settings/kinds", use: addKind)
        web.post("settings/kinds/:id", use: changeKind)
        web.post("settings/factors", use: useFactors)
        web.post("settings/reminders", use: saveReminders)
        web.post("settings/calendar", use: changeCalendar)
        web.post("settings/apple-health", use: importAppleHealth)
        web.get("signin", use: signInPage)
        web.post("signin", use: signIn)
        web.get("signup", use: signUpPage)
        web.post("signup", use: signUp)
        web.post("signout", use: signOut)
        web.get("onboarding", use: onboardingPage)
        web.post("onboarding", use: onboarding)
    }

    // MARK: - Today

    @Sendable func today(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await dayPage(nil, request, context)
    }

    @Sendable func day(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let date = context.parameters.get("date").flatMap(LocalDate.init) else {
            return Response.redirect(to: "/history", type: .normal)
        }
        return try await dayPage(date, request, context)
    }

    private func dayPage(_ date: LocalDate?, _ request: Request, _ context: TallyRequestContext,
                         error: TallyError? = nil, custom: TodayPage.CustomInput? = nil) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let hydration = services.hydration(for: user)
        let settings = try await hydration.settings()
        let today = LocalDate(containing: services.clock.now, in: settings.zone)
        let page = TodayPage(day: try await hydration.daySummary(on: date ?? today), settings: settings,
                             kinds: try await hydration.drinkKinds(), isToday: (date ?? today) == today)
        return Web.html(page.render(Web.pageContext(request, context), error: error?.message, custom: custom), status: Web.status(of: error))
    }

    @Sendable func logDrink(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await formAction(request, context) { form, hydration in
            _ = try await hydration.logDrink(.init(volumeMl: try form.number("volumeMl", "the amount"), kindName: form["kind"]))
        }
    }

    @Sendable func remove(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await formAction(request, context) { form, hydration in
            _ = try await hydration.remove(volumeMl: try form.number("volumeMl", "the amount"))
        }
    }

    /// The custom amount: typed in the user's unit, added or removed.
    @Sendable func logCustom(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await formAction(request, context, keepsCustom: true) { form, hydration in
            let unit = try await hydration.settings().unit
            let ml = try VolumeInput.milliliters(from: try form.require("amount", "the amount"), defaultUnit: unit)
            if form["mode"] == "remove" {
                _ = try await hydration.remove(volumeMl: ml)
            } else {
                _ = try await hydration.logDrink(.init(volumeMl: ml, kindName: form["kind"]))
            }
        }
    }

    @Sendable func delete(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        let hydration = services.hydration(for: user)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let entry = try await hydration.store.entry(id: id, of: user.id) else {
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
        return Response.redirect(to: "/", type: .normal)
    }

    // MARK: - History

    @Sendable func history(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let hydration = services.hydration(for: user)
        let month = request.uri.queryParameters.get("month").flatMap(YearMonth.init)
        let page = HistoryPage(history: try await hydration.history(days: 7, month: month), unit: try await hydration.settings().unit)
        return Web.html(page.render(Web.pageContext(request, context)))
    }

    // MARK: - Settings

    @Sendable func settings(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsPage(request, context)
    }

    func settingsPage(_ request: Request, _ context: TallyRequestContext, error: TallyError? = nil,
                              calendarURL: String? = nil) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let hydration = services.hydration(for: user)
        let settings = try await hydration.settings()
        let reminders = ReminderSection(reminders: try await hydration.reminderSettings(), upcoming: try await hydration.upcomingReminders(),
                                        zone: settings.zone, sleepRecordWindow: try await hydration.sleepRecordWindow(),
                                        newCalendarURL: calendarURL)
        let page = SettingsPage(settings: settings, goal: try await hydration.goalStatus(),
                                kinds: try await hydration.drinkKinds(), reminders: reminders)
        let notice = request.uri.queryParameters.get("saved").map { _ in "Saved." } ?? HealthImportSection.notice(request.uri.queryParameters)
        return Web.html(page.render(Web.pageContext(request, context), notice: notice, error: error?.message), status: Web.status(of: error))
    }

    @Sendable func saveProfile(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            _ = try await hydration.setProfile(try Self.profile(form))
        }
    }

    @Sendable func saveGoal(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            switch form["mode"] {
            case "custom":
                let unit = try await hydration.settings().unit
                let ml = try VolumeInput.milliliters(from: try form.require("amount", "your own amount"), defaultUnit: unit)
                _ = try await hydration.setGoal(.custom(ml: ml))
            case "none": _ = try await hydration.setGoal(.none)
            default: _ = try await hydration.setGoal(.automatic)
            }
        }
    }

    @Sendable func saveGeneral(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            let zone = try form.require("timeZone", "the time zone")
            _ = try UserTimeZone.validated(zone)
            if let unit = form["unit"].flatMap(VolumeUnit.init(rawValue:)) { _ = try await hydration.setUnit(unit) }
            _ = try await hydration.setTimeZone(zone)
        }
    }

    @Sendable func savePresets(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            if form["reset"] == "yes" {
                _ = try await hydration.setPresets(nil)
                return
            }
            let unit = try await hydration.settings().unit
            let amounts = try (0..<4).compactMap { index in
                try form["preset\(index)"].map { try VolumeInput.milliliters(from: $0, defaultUnit: unit) }
            }
            _ = try await hydration.setPresets(amounts)
        }
    }

    @Sendable func addKind(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            _ = try await hydration.addDrinkKind(name: try form.require("name", "the kind's name"),
                                                 factor: try form.number("factor", "the factor"))
        }
    }

    @Sendable func changeKind(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) ?? UUID()
        return try await settingsAction(request, context) { form, hydration in
            if form["action"] == "retire" {
                _ = try await hydration.changeDrinkKind(id: id, retired: true)
            } else {
                _ = try await hydration.changeDrinkKind(id: id, name: try form.require("name", "the new name"))
            }
        }
    }

    @Sendable func useFactors(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            _ = try await hydration.useFactors(form["set"].flatMap(DrinkFactorSet.init(rawValue:)) ?? .standard)
        }
    }

    @Sendable func saveReminders(_ request: Request, context: TallyRequestContext) async throws -> Response {
        try await settingsAction(request, context) { form, hydration in
            guard let wake = TimeOfDay(try form.require("wake", "when you wake")),
                  let sleep = TimeOfDay(try form.require("sleep", "when you go to sleep")) else {
                throw TallyError.invalid("Write the times as HH:MM, such as 07:00 and 23:00.")
            }
            let frequencyText = try form.require("frequency", "how many reminders a day")
            guard let frequency = Int(frequencyText) else {
                throw TallyError.invalid("Reminders a day must be a whole number; \"\(frequencyText)\" is not.")
            }
            _ = try await hydration.saveReminderSettings(ReminderSettings(
                enabled: form["enabled"] == "yes", window: WakeWindow(wake: wake, sleep: sleep), frequency: frequency,
                smartThresholdHours: form["smart"].flatMap { Int($0) }, useSleepRecords: form["sleepRecords"] == "yes"))
        }
    }

    /// A new secret calendar address (shown once, on the page that answers), or none.
    @Sendable func changeCalendar(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        guard form["action"] == "new" else {
            try await services.store.setCalendarSecret(hash: nil, of: user.id)
            return Response.redirect(to: "/settings?saved=1", type: .normal)
        }
        let secret = AccountService.newSecret()
        try await services.store.setCalendarSecret(hash: AccountService.hash(secret), of: user.id)
        let url = context.origin.origin + CalendarFeedController.path(secret)
        return try await settingsPage(request, context, calendarURL: url)
    }

    // MARK: - Accounts

    @Sendable func signInPage(_ request: Request, context: TallyRequestContext) async throws -> Response {
        if context.user != nil { return Response.redirect(to: "/", type: .normal) }
        return Web.html(AccountPages.signIn(Web.pageContext(request, context)))
    }

    @Sendable func signIn(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let form = try await Web.checkedForm(request, context)
        let name = form["name"] ?? ""
        do {
            let session = try await newSession(name: name, password: form["password"] ?? "", request, context)
            return signedIn(session, context, to: "/")
        } catch let error as TallyError {
            return Web.html(AccountPages.signIn(Web.pageContext(request, context), name: name, error: error.message), status: Web.status(of: error))
        }
    }

    /// A new session for the browser, replacing the one it had; throttled per name and per address.
    private func newSession(name: String, password: String, _ request: Request, _ context: TallyRequestContext) async throws -> String {
        try await services.accounts.signIn(
            name: name, password: password, client: context.origin.client?.description,
            device: DeviceName.from(userAgent: request.headers[.userAgent]), replacing: request.cookies[Cookies.session]?.value).session
    }

    @Sendable func signUpPage(_ request: Request, context: TallyRequestContext) async throws -> Response {
        if context.user != nil { return Response.redirect(to: "/", type: .normal) }
        let mode = try await services.accounts.signUpMode()
        return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode,
                                            invite: request.uri.queryParameters.get("invite") ?? ""))
    }

    @Sendable func signUp(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let form = try await Web.checkedForm(request, context)
        let name = form["name"] ?? ""
        do {
            let zone = form["timeZone"].flatMap { try? UserTimeZone.validated($0) }
            _ = try await services.accounts.signUp(name: name, password: form["password"] ?? "", timeZone: zone, invite: form["invite"])
            let session = try await newSession(name: name, password: form["password"] ?? "", request, context)
            // First sign-in: offer onboarding (H12).
            return signedIn(session, context, to: "/onboarding")
        } catch let error as TallyError {
            let mode = try await services.accounts.signUpMode()
            return Web.html(AccountPages.signUp(Web.pageContext(request, context), mode: mode, name: name, invite: form["invite"] ?? "",
                                                error: error.message), status: Web.status(of: error))
        }
    }

    @Sendable func signOut(_ request: Request, context: TallyRequestContext) async throws -> Response {
        _ = try await Web.checkedForm(request, context)
        if let session = request.cookies[Cookies.session]?.value { try await services.accounts.signOut(session: session) }
        var response = Response.redirect(to: "/signin", type: .normal)
        response.setCookie(Cookies.make(Cookies.session, value: "", maxAge: 0, secure: context.origin.isSecure))
        // A shared device keeps nothing of this person: "storage" empties the service worker's
        // page cache, the offline queue and the worker itself (and with it this device's push
        // subscription); "cache" the HTTP cache. Not "cookies": that would reach every site of
        // the domain, and the session cookie is already gone.
        response.headers[HTTPField.Name("Clear-Site-Data")!] = #""cache", "storage""#
        return response
    }

    @Sendable func onboardingPage(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard context.user != nil else { return Response.redirect(to: "/signin", type: .normal) }
        return Web.html(AccountPages.onboarding(Web.pageContext(request, context), preview: nil))
    }

    @Sendable func onboarding(_ request: Request, context: TallyRequestContext) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        let page = Web.pageContext(request, context)
        let activity = form["activity"].flatMap(ActivityLevel.init(rawValue:)) ?? .moderate
        do {
            let profile = try Self.profile(form)
            guard form["action"] == "save" else {
                return Web.html(AccountPages.onboarding(page, preview: GoalCalculator.goal(for: profile),
                                                    age: form["age"] ?? "", weight: form["weight"] ?? "", activity: activity))
            }
            _ = try await services.hydration(for: user).setProfile(profile)
            return Response.redirect(to: "/", type: .normal)
        } catch let error as TallyError {
            return Web.html(AccountPages.onboarding(page, preview: nil, age: form["age"] ?? "", weight: form["weight"] ?? "",
                                                activity: activity, error: error.message), status: Web.status(of: error))
        }
    }

    // MARK: - Helpers

    private static func profile(_ form: FormFields) throws -> Profile {
        let ageText = try form.require("age", "your age")
        guard let age = Int(ageText) else { throw TallyError.invalid("Age must be a whole number of years; \"\(ageText)\" is not.") }
        let activity = form["activity"].flatMap(ActivityLevel.init(rawValue:)) ?? .moderate
        return try Profile(age: age, weightKg: try form.number("weight", "your weight"), activity: activity)
    }

    /// The form of a signed-in user's action on the today screen: done, then back to the day.
    /// A refused custom amount (`keepsCustom`) comes back open with what was typed, to correct.
    private func formAction(_ request: Request, _ context: TallyRequestContext, keepsCustom: Bool = false,
                            _ action: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        try await userAction(request, context, doneAt: "/", action) { form, error in
            let custom = keepsCustom
                ? TodayPage.CustomInput(amount: form["amount"] ?? "", remove: form["mode"] == "remove", kind: form["kind"], error: error.message)
                : nil
            return try await dayPage(nil, request, context, error: error, custom: custom)
        }
    }

    private func settingsAction(_ request: Request, _ context: TallyRequestContext,
                                _ action: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        try await userAction(request, context, doneAt: "/settings?saved=1", action) { _, error in
            try await settingsPage(request, context, error: error)
        }
    }

    /// A signed-in user's form: checked, acted on, then a redirect to `doneAt`; a refusal shows
    /// `refused`'s page with its message instead.
    private func userAction(_ request: Request, _ context: TallyRequestContext, doneAt location: String,
                            _ action: (FormFields, HydrationService) async throws -> Void,
                            refused: (FormFields, TallyError) async throws -> Response) async throws -> Response {
        guard let user = context.user else { return Response.redirect(to: "/signin", type: .normal) }
        let form = try await Web.checkedForm(request, context)
        do {
            try await action(form, services.hydration(for: user))
        } catch let error as TallyError {
            return try await refused(form, error)
        }
        return Response.redirect(to: location, type: .normal)
    }

    private func signedIn(_ session: String, _ context: TallyRequestContext, to location: String) -> Response {
        var response = Response.redirect(to: location, type: .normal)
        response.setCookie(Cookies.make(Cookies.session, value: session, maxAge: Int(services.accounts.sessionLifetime),
                                        secure: context.origin.isSecure))
        return response
    }
}

/// Gives a browser that is not signed in a CSRF token in a cookie, for the sign-in and sign-up
/// forms to repeat (a signed-in browser's token is bound to its session, see
/// `AuthenticationMiddleware`), and marks whose page each answer is (`Web.pageOwnerHeader`).
struct CSRFCookieMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var response: Response
        if context.csrf != nil {
            response = try await next(request, context)
        } else if let existing = request.cookies[Cookies.csrf]?.value {
            context.csrf = existing
            response = try await next(request, context)
        } else {
            let token = AccountService.newSecret()
            context.csrf = token
            response = try await next(request, context)
            response.setCookie(Cookies.make(Cookies.csrf, value: token, maxAge: nil, secure: context.origin.isSecure))
        }
        if let user = context.user { response.headers[Web.pageOwnerHeader] = Web.pageOwner(user) }
        return response
    }
}
