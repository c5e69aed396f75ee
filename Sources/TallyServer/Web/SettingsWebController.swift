import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The settings: an index, and a page for each section (profile and goal, units and zone, presets,
/// drink kinds, reminders, the calendar feed, the Apple Health upload, your data). Each form
/// saves, then shows its section's page again.
struct SettingsWebController {
    let services: APIServices

    func addRoutes(to web: some RouterMethods<SignedInPageContext>) {
        web.get(SitePath.settings, use: settings)
        web.get(SitePath.settingsSection, use: section)
        web.post(SitePath.profile, use: saveProfile)
        web.post(SitePath.goal, use: saveGoal)
        web.post(SitePath.general, use: saveGeneral)
        web.post(SitePath.language, use: saveLanguage)
        web.post(SitePath.presets, use: savePresets)
        web.post(SitePath.kinds, use: addKind)
        web.post(SitePath.kind, use: changeKind)
        web.post(SitePath.factors, use: useFactors)
        web.post(SitePath.reminders, use: saveReminders)
        web.post(SitePath.calendar, use: changeCalendar)
        web.post(SitePath.appleHealth, use: importAppleHealth)
        web.post(SitePath.forgetDeletedImports, use: forgetDeletedImports)
        web.get(SitePath.drinksCSV, use: downloadDrinksCSV)
        web.post(SitePath.importCSV, use: importDrinksCSV)
        web.get(SitePath.backupJSON, use: downloadBackup)
        web.post(SitePath.restoreBackup, use: restoreBackup)
    }

    @Sendable func settings(_ request: Request, context: SignedInPageContext) async throws -> Response {
        Web.html(try await page(context).renderIndex(Web.pageContext(request, context)))
    }

    @Sendable func section(_ request: Request, context: SignedInPageContext, section: SettingsSection) async throws -> Response {
        try await settingsPage(request, context, section: section)
    }

    /// A section's page, with why its form was refused (`error`), or after a save (`?saved=goal`)
    /// saying so.
    func settingsPage(_ request: Request, _ context: SignedInPageContext, error: TallyError? = nil,
                      section: SettingsSection, calendarURL: String? = nil) async throws -> Response {
        let query = request.uri.queryParameters
        let notice = HealthImportSection.forgottenNotice(query) ?? YourDataSection.notice(query)
            ?? HealthImportSection.notice(query) ?? query.get("saved").map { _ in t("Saved.") }
        return Web.html(try await page(context, calendarURL: calendarURL)
                            .render(Web.pageContext(request, context), section, notice: error == nil ? notice : nil, error: error?.said),
                        status: Web.status(of: error))
    }

    private func page(_ context: SignedInPageContext, calendarURL: String? = nil) async throws -> SettingsPage {
        let hydration = services.hydration(for: context.user)
        let settings = try await hydration.settings()
        let view = try await hydration.reminders()
        let reminders = ReminderSection(reminders: view.settings, upcoming: view.upcoming, zone: settings.zone,
                                        sleepRecordWindow: view.sleepRecordWindow, followedWindow: view.followedWindow,
                                        newCalendarURL: calendarURL,
                                        devices: try await services.push.devices(of: context.user))
        return SettingsPage(settings: settings, goal: try await hydration.goalStatus(),
                            kinds: try await hydration.drinkKinds(), reminders: reminders,
                            language: context.user.language.flatMap(Language.matching))
    }

    @Sendable func saveProfile(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .profile) { form, hydration in
            _ = try await hydration.setProfile(try form.profile())
        }
    }

    @Sendable func saveGoal(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .goal) { form, hydration in
            switch form["mode"] {
            case "custom":
                let unit = try await hydration.settings().unit
                let ml = try VolumeInput.milliliters(from: try form.require("amount", Phrase("your own amount")), defaultUnit: unit)
                _ = try await hydration.setGoal(.custom(ml: ml))
            case "none": _ = try await hydration.setGoal(.none)
            default: _ = try await hydration.setGoal(.automatic)
            }
        }
    }

    @Sendable func saveGeneral(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .unitAndZone) { form, hydration in
            let zone = try form.require("timeZone", Phrase("the time zone"))
            _ = try UserTimeZone.validated(zone)
            if let unit = form["unit"].flatMap(VolumeUnit.init(rawValue:)) { _ = try await hydration.setUnit(unit) }
            _ = try await hydration.setTimeZone(zone)
        }
    }

    /// Keeps the language the person chose with their account; the browser's when they choose none.
    @Sendable func saveLanguage(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .language) { form, _ in
            let chosen = try LanguageSection.chosen(form["language"])
            try await services.store.setLanguage(of: context.user.id, to: chosen?.tag)
        }
    }

    @Sendable func savePresets(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .presets) { form, hydration in
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

    @Sendable func addKind(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .kinds) { form, hydration in
            _ = try await hydration.addDrinkKind(name: try form.require("name", Phrase("the kind's name")),
                                                 factor: try form.number("factor", Phrase("the factor")))
        }
    }

    @Sendable func changeKind(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) ?? UUID()
        return try await settingsAction(request, context, .kinds) { form, hydration in
            if form["action"] == "retire" {
                _ = try await hydration.changeDrinkKind(id: id, retired: true)
            } else {
                _ = try await hydration.changeDrinkKind(id: id, name: try form.require("name", Phrase("the new name")))
            }
        }
    }

    @Sendable func useFactors(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .kinds) { form, hydration in
            _ = try await hydration.useFactors(form["set"].flatMap(DrinkFactorSet.init(rawValue:)) ?? .standard)
        }
    }

    @Sendable func saveReminders(_ request: Request, context: SignedInPageContext) async throws -> Response {
        try await settingsAction(request, context, .reminders) { form, hydration in
            guard let wake = TimeOfDay(try form.require("wake", Phrase("when you wake"))),
                  let sleep = TimeOfDay(try form.require("sleep", Phrase("when you go to sleep"))) else {
                throw TallyError.invalid("Write the times as HH:MM, such as 07:00 and 23:00.")
            }
            let frequencyText = try form.require("frequency", Phrase("how many reminders a day"))
            guard let frequency = Int(frequencyText) else {
                throw TallyError.invalid("Reminders a day must be a whole number; \"\(frequencyText)\" is not.")
            }
            _ = try await hydration.saveReminderSettings(ReminderSettings(
                enabled: form["enabled"] == "yes", window: WakeWindow(wake: wake, sleep: sleep), frequency: frequency,
                smartThresholdHours: form["smart"].flatMap { Int($0) }, useSleepRecords: form["sleepRecords"] == "yes"))
        }
    }

    /// A new secret calendar address (shown once, on the page that answers), or none.
    @Sendable func changeCalendar(_ request: Request, context: SignedInPageContext) async throws -> Response {
        let form = try await Web.checkedForm(request, context)
        guard form["action"] == "new" else {
            try await services.accounts.revokeCalendarSecret(of: context.user)
            return Web.redirect(SettingsSection.calendar.saved)
        }
        let secret = try await services.accounts.newCalendarSecret(of: context.user)
        let url = context.origin.origin + CalendarFeedController.path(secret)
        // Shown, not redirected to: the address is shown this once.
        return try await settingsPage(request, context, section: .calendar, calendarURL: url)
    }

    /// A form of `section`: saved, then that section's page again, saying so; refused, that page
    /// with the reason.
    private func settingsAction(_ request: Request, _ context: SignedInPageContext, _ section: SettingsSection,
                                _ action: (FormFields, HydrationService) async throws -> Void) async throws -> Response {
        try await Web.formAction(request, context) { form in
            try await action(form, services.hydration(for: context.user))
            return Web.redirect(section.saved)
        } refused: { _, refusal in
            try await settingsPage(request, context, error: refusal.error, section: section)
        }
    }
}

extension FormFields {
    /// The profile the form describes (onboarding, settings): age, weight and activity.
    func profile() throws -> Profile {
        let ageText = try require("age", Phrase("your age"))
        guard let age = Int(ageText) else { throw TallyError.invalid("Age must be a whole number of years; \"\(ageText)\" is not.") }
        let activity = self["activity"].flatMap(ActivityLevel.init(rawValue:)) ?? .moderate
        return try Profile(age: age, weightKg: try number("weight", Phrase("your weight")), activity: activity)
    }
}
