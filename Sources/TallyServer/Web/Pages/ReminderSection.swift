import Foundation
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// The reminders part of the settings screen (H11): the wake window, how many a day, smart or
/// fixed, and a calendar link any calendar app can subscribe to.
struct ReminderSection {
    var reminders: ReminderSettings
    var upcoming: [Date]
    var zone: TimeZone
    /// The typical waking hours of the last 7 days of sleep records; nil without any.
    var sleepRecordWindow: WakeWindow?
    /// The waking hours today started with, which today's reminders follow.
    var followedWindow: WakeWindow
    /// A calendar address just made: shown this once.
    var newCalendarURL: String?
    /// The devices with notifications on, and those whose push service gave them up.
    var devices: [PushDevice] = []

    /// Failures in a row after which a device is pointed to the calendar feed instead.
    static let failuresBeforeCalendar = 3

    /// The reminders' page.
    func render(_ context: PageContext) -> HTML {
        let thresholds = [HTML("<option value=\"\"\(HTML.flag("selected", reminders.smartThresholdHours == nil))>\(t("At fixed times"))</option>")]
            + SmartReminder.thresholds.map { hours in
                HTML("<option value=\"\(hours)\"\(HTML.flag("selected", reminders.smartThresholdHours == hours))>\(t("Only after \(hours) h without a drink"))</option>")
            }
        return """
        <section id="\(SettingsSection.reminders.rawValue)" aria-labelledby="reminders-title">
        <h1 id="reminders-title">\(t("Reminders"))</h1>
        <form method="post" action="\(SitePath.reminders.link)" class="stack">
        \(Layout.csrfField(context))
        <div class="row"><input type="checkbox" id="reminders-on" name="enabled" value="yes"\(HTML.flag("checked", reminders.enabled))>\
        <label for="reminders-on">\(t("Remind me to drink"))</label></div>
        <div class="grid">
        <label for="wake">\(t("I wake at"))</label>
        <input id="wake" name="wake" type="time" required value="\(reminders.window.wake)">
        <label for="sleep">\(t("I go to sleep at"))</label>
        <input id="sleep" name="sleep" type="time" required value="\(reminders.window.sleep)">
        </div>
        <div class="row"><input type="checkbox" id="sleep-records" name="sleepRecords" value="yes"\(HTML.flag("checked", reminders.useSleepRecords))>\
        <label for="sleep-records">\(t("Use my sleep records"))</label></div>
        <p class="help" id="sleep-records-window">\(sleepRecords)</p>
        <label for="frequency">\(t("Reminders a day (1–24)"))</label>
        <input id="frequency" name="frequency" type="number" inputmode="numeric" min="1" max="24" required value="\(reminders.frequency)">
        <label for="smart">\(t("When"))</label>
        <select id="smart" name="smart">\(thresholds)</select>
        <button type="submit" class="primary">\(t("Save reminders"))</button>
        </form>
        \(next)
        <div class="push" data-push hidden>
        <h2>\(t("On this device"))</h2>
        <p class="help">\(t("Reminders arrive as notifications on the devices where you turn them on."))</p>
        <div class="row"><button type="button" data-push-on>\(t("Turn on notifications"))</button>
        <button type="button" data-push-test>\(t("Send a test reminder"))</button></div>
        <p class="message" data-push-status hidden></p>
        </div>
        \(deviceList)
        <noscript><p class="help">\(t("Notifications need JavaScript; the calendar feed works without it."))</p></noscript>
        </section>
        """
    }

    /// Each device, and how its notifications went: a reminder that stopped arriving says so
    /// here rather than going quiet.
    private var deviceList: HTML {
        guard !devices.isEmpty else { return "" }
        let written = Written.current
        let rows = devices.map { device -> HTML in
            let name = DeviceName.shown(device.device ?? "an unknown device")
            let state: HTML
            if let gone = device.goneAt {
                state = "<p class=\"message error\">\(t("Stopped on \(written.moment(gone, in: zone)): the browser no longer takes notifications. Turn them on again on that device."))</p>"
            } else if device.failures >= Self.failuresBeforeCalendar {
                let failure = device.lastFailure == "no answer" ? t("no answer") : t("status \(device.lastFailure ?? "?")")
                state = """
                <p class="message error">\(t(one: "The last \(device.failures) notification did not reach this device (\(failure)).",
                                             other: "The last \(device.failures) notifications did not reach this device (\(failure)).")) \
                <a href="\(SitePath.calendar.link)">\(t("Use the calendar feed instead"))</a></p>
                """
            } else if let delivered = device.lastDeliveredAt {
                state = "<p class=\"help\">\(t("Last notification: \(written.moment(delivered, in: zone))"))</p>"
            } else {
                state = "<p class=\"help\">\(t("No notification sent yet"))</p>"
            }
            return "<li data-device=\"\(device.endpoint)\"><span class=\"what\">\(name)</span>\(state)</li>"
        }
        return """
        <h2 id="devices-title">\(t("Your devices"))</h2>
        <ul class="devices" aria-labelledby="devices-title">\(rows)</ul>
        """
    }

    private var sleepRecords: String {
        guard let sleepRecordWindow else {
            return t("No sleep records from Apple Health for the last 7 days: until you import some (Settings, Apple Health), the times above apply.")
        }
        let records = t("Your sleep records from Apple Health, last 7 days: awake from \(Written.current.time(of: sleepRecordWindow.wake)) to \(Written.current.time(of: sleepRecordWindow.sleep)).")
        guard reminders.useSleepRecords, followedWindow != sleepRecordWindow else { return records }
        // Each day keeps the waking hours it started with (H11).
        return records + " " + t("Today keeps the hours it started with (\(Written.current.time(of: followedWindow.wake)) to \(Written.current.time(of: followedWindow.sleep))); these count from tomorrow.")
    }

    private var next: HTML {
        guard reminders.enabled, !upcoming.isEmpty else { return "" }
        let times = upcoming.prefix(reminders.frequency).map { Written.current.time($0, in: zone) }.joined(separator: ", ")
        return "<p class=\"help\">\(t("Next: \(times)."))</p>"
    }

    /// The calendar feed's page: a new secret address (shown once) or none.
    func calendar(_ context: PageContext) -> HTML {
        let link: HTML = newCalendarURL.map { url in
            """
            <p>\(t("Subscribe to this address in your calendar app (it is shown only now; make a new one if you lose it):"))</p>
            <p><input type="text" readonly value="\(url)" aria-label="\(t("Calendar address"))" class="code-field"></p>
            """
        } ?? ""
        return """
        <section id="\(SettingsSection.calendar.rawValue)" aria-labelledby="calendar-title">
        <h1 id="calendar-title">\(t("Reminders in your calendar"))</h1>
        <p class="help">\(t("A calendar feed with an alarm at each reminder time, for any calendar app."))</p>
        \(link)
        <form method="post" action="\(SitePath.calendar.link)" class="row">
        \(Layout.csrfField(context))
        <button type="submit" name="action" value="new">\(t("New calendar address"))</button>
        <button type="submit" name="action" value="stop" class="delete">\(t("Stop the calendar"))</button>
        </form>
        </section>
        """
    }
}
