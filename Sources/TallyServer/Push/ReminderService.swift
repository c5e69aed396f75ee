import Foundation
import Logging
import ServiceLifecycle
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Sends the reminders that fall due (H11), once a minute, inside `tally serve`. Each reminder
/// is recorded under a unique key before it is sent, so it goes out once even when several
/// servers share the database or one restarts.
struct ReminderService: Service {
    let store: any TallyStorage
    let clock: any WallClock
    let push: PushCenter
    var interval: Duration = .seconds(60)
    var logger = Logger(label: "tally.reminders")
    /// How long a sent reminder's key is kept. A tick looks back one minute, and a smart
    /// reminder's quiet stretch starts at the latest when that day's window opened, so no key
    /// older than two days can come due again.
    static let remembered: TimeInterval = 2 * 86_400
    /// How long a device whose push service said it is gone stays listed, as gone.
    static let goneKept: TimeInterval = 30 * 86_400

    /// Ticks every `interval` until the server shuts down.
    func run() async throws {
        // Sleeping is cut short by a shutdown: then the loop ends.
        try? await cancelWhenGracefulShutdown {
            var previous = clock.now.addingTimeInterval(-60)
            var forgotten = Date.distantPast
            while !Task.isCancelled {
                let now = clock.now
                let sent = await tick(from: previous, to: now)
                if sent > 0 { logger.info("Sent \(sent) reminder\(sent == 1 ? "" : "s").") }
                if now.timeIntervalSince(forgotten) >= 3600 {
                    _ = try? await store.forgetRemindersSent(before: now.addingTimeInterval(-Self.remembered))
                    try? await store.forgetGonePushDevices(before: now.addingTimeInterval(-Self.goneKept))
                    forgotten = now
                }
                previous = now
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Sends what fell due after `previous` and up to `now`; returns how many reminders went out.
    func tick(from previous: Date, to now: Date) async -> Int {
        guard let recipients = try? await store.reminderRecipients(), !recipients.isEmpty,
              let sender = try? await push.sender() else { return 0 }
        var sent = 0
        // Each person's reminder is their own (its drink id above all); all are sent at once, a
        // few at a time: one person's dead push service holds back no one else.
        var messages: [(PushSender.Notification, PushSubscription)] = []
        for recipient in recipients {
            for key in await dueKeys(recipient, from: previous, to: now)
            where (try? await store.claimReminder(key: key, at: now)) == true {
                let reminder = PushSender.reminder(for: recipient.user, settings: recipient.settings)
                messages += recipient.subscriptions.map { (reminder, $0) }
                sent += 1
            }
        }
        await sender.send(messages, now: now, kind: .reminder)
        return sent
    }

    /// The keys of the reminders due for one person: a fixed time that passed, or a smart
    /// reminder after a quiet stretch (one per stretch: its key is the stretch's start).
    private func dueKeys(_ recipient: ReminderRecipient, from previous: Date, to now: Date) async -> [String] {
        let zone = recipient.settings.zone
        let user = recipient.user.id
        let today = LocalDate(containing: now, in: zone)
        let reminders = recipient.reminders
        // Put off: nothing until then, and then the one reminder that was asked for.
        if let until = recipient.snoozedUntil, until > previous {
            return until <= now ? ["snoozed \(user) \(Int(until.timeIntervalSince1970))"] : []
        }
        let windows = (try? await store.dayWindows(reminders, of: user, now: now, zone: zone))
            ?? DayWindows(settings: reminders, records: [], zone: zone)
        if let hours = reminders.smartThresholdHours, let smart = try? SmartReminder(thresholdHours: hours) {
            let hydration = HydrationService(store: store, clock: FixedClock(now), user: user)
            let lastDrink = try? await store.lastDrink(of: user)
            let goalMet = (try? await hydration.dayProgress(on: today))?.goalMet ?? false
            guard let quietSince = smart.quietSince(now: now, lastLog: lastDrink ?? nil, windows: windows, goalMet: goalMet) else {
                return []
            }
            return ["smart \(user) \(Int(quietSince.timeIntervalSince1970))"]
        }
        // Yesterday's window may cross midnight: its reminders come from the window it started with.
        return [today.adding(days: -1), today]
            .flatMap { windows.reminders(startingOn: $0) }
            .filter { $0 > previous && $0 <= now }
            .map { "fixed \(user) \(Int($0.timeIntervalSince1970))" }
    }
}
