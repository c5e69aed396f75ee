import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// One section of the settings (A3) on a page of its own: profile, goal, unit and zone, presets,
/// reminders, calendar, Apple Health, your data, drink kinds. What a form there did, or why it
/// was refused, is said at the top of that page.
struct SettingsPage {
    var settings: HydrationSettings
    var goal: GoalStatus
    var kinds: [DrinkKind]
    var reminders: ReminderSection
    /// The language the person chose; nil for their browser's.
    var language: Language?

    var unit: VolumeUnit { settings.unit }

    func render(_ context: PageContext, _ section: SettingsSection, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page(section.title, context, notice: notice, error: error, """
        <p class="back"><a href="\(SitePath.settings.link)">\(t("Settings"))</a></p>
        \(body(context, section))
        """)
    }

    private func body(_ context: PageContext, _ section: SettingsSection) -> HTML {
        switch section {
        case .profile: profileSection(context)
        case .goal: goalSection(context)
        case .unitAndZone: generalSection(context)
        case .presets: presetSection(context)
        case .reminders: reminders.render(context)
        case .calendar: reminders.calendar(context)
        case .appleHealth: HealthImportSection().render(context)
        case .yourData: YourDataSection(unit: unit).render(context)
        case .kinds: kindSection(context)
        case .language: LanguageSection(chosen: language).render(context)
        }
    }

    private func profileSection(_ context: PageContext) -> HTML {
        let profile = goal.profile
        return """
        <section id="\(SettingsSection.profile.rawValue)" aria-labelledby="profile-title">
        <h1 id="profile-title">\(t("Profile"))</h1>
        <form method="post" action="\(SitePath.profile.link)" class="stack" data-goal-preview>
        \(Layout.csrfField(context))
        \(SettingsPages.profileFields(age: profile.map { "\($0.age)" } ?? "",
                                      weight: profile.map { String(format: "%g", $0.weightKg) } ?? "",
                                      activity: profile?.activity ?? .moderate))
        <output class="breakdown" id="goal-preview" aria-live="polite">\(goal.breakdown.map { SettingsPages.breakdown($0) } ?? "")</output>
        <button type="submit" class="primary">\(t("Save profile"))</button>
        </form>
        </section>
        """
    }

    private func goalSection(_ context: PageContext) -> HTML {
        let custom = goal.mode == .custom ? goal.goalMl.map { Layout.inputValue($0, unit) } ?? "" : ""
        return """
        <section id="\(SettingsSection.goal.rawValue)" aria-labelledby="goal-title">
        <h1 id="goal-title">\(t("Daily goal"))</h1>
        <form method="post" action="\(SitePath.goal.link)" class="stack">
        \(Layout.csrfField(context))
        <fieldset>
        <legend>\(t("How the goal is set"))</legend>
        <input type="radio" id="goal-auto" name="mode" value="auto"\(HTML.flag("checked", goal.mode == .automatic))>
        <label for="goal-auto">\(t("From my profile (\(Layout.volume(GoalCalculator.automaticGoalMl(for: goal.profile), unit)))"))</label><br>
        <input type="radio" id="goal-custom" name="mode" value="custom"\(HTML.flag("checked", goal.mode == .custom))>
        <label for="goal-custom">\(t("My own amount"))</label><br>
        <input type="radio" id="goal-none" name="mode" value="none"\(HTML.flag("checked", goal.mode == .none))>
        <label for="goal-none">\(t("No goal, just totals"))</label>
        </fieldset>
        <label for="goal-amount">\(t("Own amount (\(unit.rawValue))"))</label>
        <input id="goal-amount" name="amount" type="number" inputmode="decimal" step="any" min="0" value="\(custom)">
        <button type="submit" class="primary">\(t("Save goal"))</button>
        </form>
        </section>
        """
    }

    private func generalSection(_ context: PageContext) -> HTML {
        let zones = TimeZone.knownTimeZoneIdentifiers.sorted().map { HTML("<option value=\"\($0)\"></option>") }
        return """
        <section id="\(SettingsSection.unitAndZone.rawValue)" aria-labelledby="general-title">
        <h1 id="general-title">\(t("Unit and time zone"))</h1>
        <form method="post" action="\(SitePath.general.link)" class="stack">
        \(Layout.csrfField(context))
        <fieldset>
        <legend>\(t("Unit"))</legend>
        <input type="radio" id="unit-ml" name="unit" value="ml"\(HTML.flag("checked", unit == .ml))><label for="unit-ml">\(t("Millilitres (ml)"))</label><br>
        <input type="radio" id="unit-oz" name="unit" value="oz"\(HTML.flag("checked", unit == .oz))><label for="unit-oz">\(t("US fluid ounces (oz)"))</label>
        </fieldset>
        <label for="time-zone">\(t("Time zone (your days start at midnight there)"))</label>
        <input id="time-zone" name="timeZone" list="zones" value="\(settings.timeZone)" required autocomplete="off">
        <datalist id="zones">\(zones)</datalist>
        <button type="submit" class="primary">\(t("Save"))</button>
        </form>
        </section>
        """
    }

    private func presetSection(_ context: PageContext) -> HTML {
        let amounts = settings.presets.amountsMl
        let fields = (0..<4).map { index -> HTML in
            let value = index < amounts.count ? Layout.inputValue(amounts[index], unit) : ""
            return """
            <label for="preset-\(index)">\(index == 3 ? t("Button \(index + 1) (optional)") : t("Button \(index + 1)"))</label>
            <input id="preset-\(index)" name="preset\(index)" type="number" inputmode="decimal" step="any" min="0" value="\(value)"\(HTML.flag("required", index < 3))>
            """
        }
        return """
        <section id="\(SettingsSection.presets.rawValue)" aria-labelledby="presets-title">
        <h1 id="presets-title">\(t("Quick-add buttons (\(unit.rawValue))"))</h1>
        <form method="post" action="\(SitePath.presets.link)" class="grid">
        \(Layout.csrfField(context))
        \(fields)
        <button type="submit" class="primary">\(t("Save buttons"))</button>
        <button type="submit" class="secondary" name="reset" value="yes">\(t("Back to the defaults"))</button>
        </form>
        </section>
        """
    }

    private func kindSection(_ context: PageContext) -> HTML {
        let rows = kinds.filter { !$0.isRetired }.map { kind -> HTML in
            let own: HTML = kind.isBuiltIn ? "" : """
                <form method="post" action="\(SitePath.kind.link(kind.id))" class="inline">
                \(Layout.csrfField(context))
                <span id="rename-\(kind.id)-name" class="visually-hidden">\(t("New name for \(kind.name)"))</span>
                <input id="rename-\(kind.id)" aria-labelledby="rename-\(kind.id)-name" name="name" value="\(kind.name)" size="10">
                <button type="submit" name="action" value="rename">\(t("Rename"))</button>
                <button type="submit" name="action" value="retire" aria-label="\(t("Retire \(kind.name)"))">\(t("Retire"))</button>
                </form>
                """
            return "<li><span class=\"what\">\(Layout.kindName(kind.name))</span> <span class=\"amount\">× \(String(format: "%.2f", kind.factor))</span>\(own)</li>"
        }
        return """
        <section id="\(SettingsSection.kinds.rawValue)" aria-labelledby="kinds-title">
        <h1 id="kinds-title">\(t("Drink kinds"))</h1>
        <p class="help">\(Written.current.say(DrinkFactorSet.disclaimer))</p>
        <ul class="kinds">\(rows)</ul>
        <form method="post" action="\(SitePath.factors.link)" class="row">
        \(Layout.csrfField(context))
        <button type="submit" name="set" value="standard" class="secondary">\(t("Use standard factors"))</button>
        <button type="submit" name="set" value="bhi" class="secondary">\(t("Use the Beverage Hydration Index"))</button>
        </form>
        <form method="post" action="\(SitePath.kinds.link)" class="row">
        \(Layout.csrfField(context))
        <label for="kind-name">\(t("New kind"))</label>
        <input id="kind-name" name="name" required maxlength="40">
        <label for="kind-factor">\(t("Factor (0–1.5)"))</label>
        <input id="kind-factor" name="factor" type="number" step="0.01" min="0" max="1.5" value="1" required>
        <button type="submit" class="primary">\(t("Add kind"))</button>
        </form>
        </section>
        """
    }
}

/// The sections of the settings, in order, each a page of its own (`/settings/goal`) that its
/// forms answer with.
enum SettingsSection: String, CaseIterable, Sendable, CustomStringConvertible {
    case profile
    case goal
    case unitAndZone = "unit-zone"
    case presets
    case reminders
    case calendar
    case appleHealth = "apple-health"
    case yourData = "your-data"
    case kinds
    case language

    var title: String {
        switch self {
        case .profile: t("Profile")
        case .goal: t("Daily goal")
        case .unitAndZone: t("Unit and time zone")
        case .presets: t("Quick-add buttons")
        case .reminders: t("Reminders")
        case .calendar: t("Calendar")
        case .appleHealth: t("Apple Health")
        case .yourData: t("Your data")
        case .kinds: t("Drink kinds")
        case .language: t("Language")
        }
    }

    var description: String { rawValue }

    /// The section's own page.
    var link: String { SitePath.settingsSection.link(self) }

    /// The section's page, saying it was saved.
    var saved: String { link + "?saved=\(rawValue)" }
}

/// Pieces that onboarding and settings share.
enum SettingsPages {
    static func profileFields(age: String, weight: String, activity: ActivityLevel) -> HTML {
        let levels = ActivityLevel.allCases.map { level -> HTML in
            "<option value=\"\(level.rawValue)\"\(HTML.flag("selected", level == activity))>\(label(level))</option>"
        }
        return """
        <label for="age">\(t("Age (years)"))</label>
        <input id="age" name="age" type="number" inputmode="numeric" min="\(Profile.ageRange.lowerBound)" max="\(Profile.ageRange.upperBound)" required value="\(age)">
        <label for="weight">\(t("Weight (kg)"))</label>
        <input id="weight" name="weight" type="number" inputmode="decimal" step="any" min="30" max="300" required value="\(weight)">
        <label for="activity">\(t("Activity"))</label>
        <select id="activity" name="activity">\(levels)</select>
        """
    }

    static func breakdown(_ breakdown: GoalBreakdown) -> HTML {
        // Whole millilitres as the page script writes them when the numbers change (app.js): ungrouped.
        let ml = { (value: Double) in String(Int(value)) }
        return """
        <span>\(t("Base \(ml(breakdown.baseMl.rounded())) ml (\(ml(breakdown.mlPerKg)) ml per kg)"))</span>
        <span>\(t("+ activity \(ml(breakdown.bonusMl)) ml"))</span>
        <strong>\(t("= \(ml(breakdown.goalMl.rounded())) ml a day"))</strong>\(breakdown.clamped ? HTML(" <span>\(t("(kept within 1500–4500 ml)"))</span>") : "")
        """
    }

    /// The level's name alone, for the settings' summary of the profile.
    static func activityName(_ level: ActivityLevel) -> String {
        switch level {
        case .sedentary: t("sedentary")
        case .light: t("light activity")
        case .moderate: t("moderate activity")
        case .active: t("active")
        case .veryActive: t("very active")
        }
    }

    static func label(_ level: ActivityLevel) -> String {
        switch level {
        case .sedentary: t("Sedentary")
        case .light: t("Light (+250 ml)")
        case .moderate: t("Moderate (+500 ml)")
        case .active: t("Active (+750 ml)")
        case .veryActive: t("Very active (+1000 ml)")
        }
    }
}
