import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The settings' first page: every section as one row that says what it is set to now, in
/// groups, as a phone's settings are; each row opens that section's page.
extension SettingsPage {
    func renderIndex(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page(t("Settings"), context, notice: notice, error: error, """
        <h1>\(t("Settings"))</h1>
        \(group("Water", t("Water"), [row(.goal), row(.profile), row(.presets), row(.kinds),
                                    link(SitePath.bottle.link, t("Bottle"), t("The bottle you refill, and its size")), row(.unitAndZone)]))
        \(group("Reminders", t("Reminders"), [row(.reminders), row(.calendar)]))
        \(group("Import and export", t("Import and export"), [row(.appleHealth), row(.yourData)]))
        \(group("Account", t("Account"), [row(.language), link(SitePath.account.link, t("Your account"), t("Password, sessions, API tokens"))]))
        """)
    }

    /// A group of rows under its title; its id is made from the English title (`english`), the
    /// same in every language.
    private func group(_ english: String, _ title: String, _ rows: [HTML]) -> HTML {
        let id = "settings-" + english.lowercased().replacingOccurrences(of: " ", with: "-")
        return """
        <section class="settings-group" aria-labelledby="\(id)">
        <h2 id="\(id)">\(title)</h2>
        <ul class="settings-list">\(rows)</ul>
        </section>
        """
    }

    private func row(_ section: SettingsSection) -> HTML {
        link(section.link, section.title, summary(section))
    }

    private func link(_ href: String, _ title: String, _ value: String) -> HTML {
        "<li><a href=\"\(href)\"><span class=\"what\">\(title)</span> <span class=\"value\">\(value)</span></a></li>"
    }

    /// What the section is set to now, in a few words.
    private func summary(_ section: SettingsSection) -> String {
        switch section {
        case .goal:
            guard let ml = goal.goalMl, goal.mode != .none else { return t("No goal, just totals") }
            let volume = Layout.volume(ml, unit)
            return goal.mode == .automatic ? t("\(volume) a day, from your profile") : t("\(volume) a day, your own")
        case .profile:
            guard let profile = goal.profile else { return t("Not set") }
            let weight = Written.current.decimal(profile.weightKg), activity = SettingsPages.activityName(profile.activity)
            return t(one: "\(profile.age) year, \(weight) kg, \(activity)", other: "\(profile.age) years, \(weight) kg, \(activity)")
        case .presets:
            return settings.presets.amountsMl.map { Layout.volume($0, unit) }.joined(separator: " · ")
        case .kinds:
            let count = kinds.filter { !$0.isRetired }.count
            return t(one: "\(count) kind", other: "\(count) kinds")
        case .unitAndZone:
            return "\(unit.rawValue) · \(settings.timeZone)"
        case .language:
            return LanguageSection.summary(language)
        case .reminders:
            let set = reminders.reminders
            guard set.enabled else { return t("Off") }
            let wake = Written.current.time(of: set.window.wake), sleep = Written.current.time(of: set.window.sleep)
            return t(one: "\(set.frequency) a day, \(wake)–\(sleep)", other: "\(set.frequency) a day, \(wake)–\(sleep)")
        case .calendar: return t("A feed for any calendar app")
        case .appleHealth: return t("Water and sleep from your iPhone")
        case .yourData: return t("Download, import, back up")
        }
    }
}
