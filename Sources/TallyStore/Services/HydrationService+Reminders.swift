import Foundation
import TallyCore

extension HydrationService {
    public func reminderSettings() async throws -> ReminderSettings {
        try await store.reminderSettings(of: user)
    }

    /// Saves reminder settings after checking them (H11).
    @discardableResult
    public func saveReminderSettings(_ settings: ReminderSettings) async throws -> ReminderSettings {
        let checked = try settings.validated()
        try await store.saveReminderSettings(checked, of: user)
        return checked
    }

    /// The reminder settings with the wake window they follow today (sleep records or manual).
    public func followedReminderSettings() async throws -> ReminderSettings {
        try await store.followedReminders(try await store.reminderSettings(of: user), of: user,
                                          now: clock.now, zone: try await settings().zone)
    }

    /// The typical wake window of the sleep records of the 7 days before today, as they stand now
    /// (records imported today included); nil without any.
    public func sleepRecordWindow() async throws -> WakeWindow? {
        try await store.sleepRecordWindow(of: user, now: clock.now, zone: try await settings().zone)
    }

    /// The window `settings` make today follow: the one today started with.
    public func followedWindow(_ settings: ReminderSettings) async throws -> WakeWindow {
        try await store.followedReminders(settings, of: user, now: clock.now, zone: try await self.settings().zone).window
    }

    /// The reminder times still to come of yesterday's window, today's and the days after it,
    /// each from the window its day starts with; none while reminders are off or smart (those
    /// come after a while without a drink, at no fixed time).
    public func upcomingReminders(days: Int = 1) async throws -> [Date] {
        let reminders = try await store.reminderSettings(of: user)
        guard reminders.enabled, reminders.smartThresholdHours == nil else { return [] }
        let (now, zone) = (clock.now, try await settings().zone)
        let windows = try await store.dayWindows(reminders, of: user, now: now, zone: zone)
        let today = LocalDate(containing: now, in: zone)
        return (-1..<days).flatMap { windows.reminders(startingOn: today.adding(days: $0)) }.filter { $0 > now }
    }
}

extension HealthRecordRepository {
    /// The window each day around `now` starts with: from the sleep records known when that day
    /// began when the user chose them, otherwise the manual one.
    public func dayWindows(_ settings: ReminderSettings, of user: UUID, now: Date, zone: TimeZone) async throws -> DayWindows {
        guard settings.useSleepRecords else { return DayWindows(settings: settings, records: [], zone: zone) }
        return DayWindows(settings: settings, records: try await recentSleep(of: user, now: now), zone: zone)
    }

    /// `settings` with the wake window today started with.
    public func followedReminders(_ settings: ReminderSettings, of user: UUID, now: Date, zone: TimeZone) async throws -> ReminderSettings {
        var followed = settings
        followed.window = try await dayWindows(settings, of: user, now: now, zone: zone)
            .window(startingOn: LocalDate(containing: now, in: zone))
        return followed
    }

    /// The typical window of the sleep records of the 7 days before today, chosen or not, as the
    /// records stand now; nil without any.
    public func sleepRecordWindow(of user: UUID, now: Date, zone: TimeZone) async throws -> WakeWindow? {
        SleepWindow.typical(asleep: try await recentSleep(of: user, now: now).map(\.interval), forDayOf: now, zone: zone)
    }

    private func recentSleep(of user: UUID, now: Date) async throws -> [SleepRecord] {
        // The 7 days before yesterday began, and a night that ended in them may have started the evening before.
        try await sleepRecords(of: user, endingAfter: now.addingTimeInterval(-Double(SleepWindow.days + 3) * 86_400))
    }
}
