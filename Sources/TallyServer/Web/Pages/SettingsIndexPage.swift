import Foundation
import TallyCore
import TallyRepositories
import TallyServices

/// The settings' first page: every section as one row that says what it is set to now, in
/// groups, as a phone's settings are; each row opens that section's page.
extension SettingsPage {
    func renderIndex(_ context: PageContext, notice: String? = nil, error: String? = nil) -> HTML {
        Layout.page("Settings", context, notice: notice, error: error, """
        <h1>Settings</h1>
        \(group("Water", [row(.goal), row(.profile), row(.presets), row(.kinds),
                          link(SitePath.bottle.link, "Bottle", "The bottle you refill, and its size"), row(.unitAndZone)]))
        \(group("Reminders", [row(.reminders), row(.calendar)]))
        \(group("Import and export", [row(.appleHealth), row(.yourData)]))
        \(group("Account", [link(SitePath.account.link, "Your account", "Password, sessions, API tokens")]))
        """)
    }

    private func group(_ title: String, _ rows: [HTML]) -> HTML {
        let id = "settings-" + title.lowercased().replacingOccurrences(of: " ", with: "-")
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
            guard let ml = goal.goalMl, goal.mode != .none else { return "No goal, just totals" }
            return Layout.volume(ml, unit) + (goal.mode == .automatic ? " a day, from your profile" : " a day, your own")
        case .profile:
            guard let profile = goal.profile else { return "Not set" }
            return "\(profile.age) years, \(Written.current.decimal(profile.weightKg)) kg, \(SettingsPages.activityName(profile.activity))"
        case .presets:
            return settings.presets.amountsMl.map { Layout.volume($0, unit) }.joined(separator: " · ")
        case .kinds:
            let count = kinds.filter { !$0.isRetired }.count
            return count == 1 ? "1 kind" : "\(count) kinds"
        case .unitAndZone:
            return "\(unit.rawValue) · \(settings.timeZone)"
        case .reminders:
            let set = reminders.reminders
            guard set.enabled else { return "Off" }
            return "\(set.frequency) a day, \(Written.current.time(of: set.window.wake))–\(Written.current.time(of: set.window.sleep))"
        case .calendar: return "A feed for any calendar app"
        case .appleHealth: return "Water and sleep from your iPhone"
        case .yourData: return "Download, import, back up"
        }
    }
}
