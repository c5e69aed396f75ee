import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The page a home-screen shortcut opens (the manifest's `shortcuts`): one of the person's
/// quick-add buttons, by its place. See `QuickAddWebController` for why it logs through a form.
struct QuickAddPage {
    var button: Int
    var amountMl: Double
    var unit: VolumeUnit
    var zone: TimeZone

    /// What happened, for the page to say.
    enum Outcome {
        /// Not logged yet: the form that logs it, with a new id; `sendsItself` when app.js
        /// should send it at once (the person opened the shortcut themselves).
        case ask(id: UUID, sendsItself: Bool)
        /// Logged now, or (`again`) sent once more and not logged twice.
        case logged(Intake, again: Bool)
    }

    func render(_ context: PageContext, _ outcome: Outcome, day: DaySummary, error: String? = nil) -> HTML {
        let amount = Layout.volume(amountMl, unit)
        let body: HTML
        switch outcome {
        case .ask(let id, let sendsItself):
            body = """
            <h1 id="quick-title">\(t("Log \(amount) of water?"))</h1>
            <p>\(t("Your quick-add button \(button)."))</p>
            <form method="post" action="\(SitePath.quickAdd.link(button))"\(HTML.flag("data-auto-submit", sendsItself))>
            \(Layout.csrfField(context))
            <input type="hidden" name="id" value="\(id.uuidString)">
            <input type="hidden" name="volumeMl" value="\(amountMl)">
            <button type="submit" class="primary">\(t("Log \(amount)"))</button>
            </form>
            <p class="help">\(t("Opened from the home screen, this is done for you. Reloading this page logs nothing."))</p>
            """
        case .logged(let intake, let again):
            let time = Written.current.time(intake.at, in: zone)
            let (volume, kind) = (Layout.volume(intake.volumeMl, unit), Layout.kindNameInSentence(intake.kindName))
            body = again
                ? "<h1 id=\"quick-title\">\(t("Already logged"))</h1><p class=\"message notice\" role=\"status\" id=\"quick-result\">\(t("Already logged: \(volume) of \(kind) at \(time). Nothing was added."))</p>"
                : "<h1 id=\"quick-title\">\(t("Logged \(volume)"))</h1><p class=\"message notice\" role=\"status\" id=\"quick-result\">\(t("Logged \(volume) of \(kind) at \(time)."))</p>"
        }
        let total = day.goalMl.map { t("Today: \(Layout.volume(day.totalMl, unit)) of \(Layout.volume($0, unit)).") }
            ?? t("Today: \(Layout.volume(day.totalMl, unit)).")
        return Layout.page(t("Quick add"), context, error: error, """
        <section class="quick" aria-labelledby="quick-title">
        \(body)
        <p id="quick-total">\(total)</p>
        <p><a href="\(SitePath.today.link)">\(t("Open today"))</a></p>
        </section>
        """)
    }

    /// A button the person does not have (the 4th is optional).
    static func missing(_ context: PageContext, button: String) -> HTML {
        let choose: HTML = "<a href=\"\(SettingsSection.presets.link)\">\(t("Choose your buttons"))</a>"
        let today: HTML = "<a href=\"\(SitePath.today.link)\">\(t("open today"))</a>"
        return Layout.page(t("Quick add"), context, """
        <h1>\(t("No quick-add button \(button)"))</h1>
        <p>\(HTML.sentence("You have no quick-add button {0}. {1}, or {2}.", "\(button)", choose, today))</p>
        """)
    }
}
