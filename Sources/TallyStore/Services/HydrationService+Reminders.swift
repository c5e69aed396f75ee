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

    /// The reminder settings with the wake window they follow now (sleep records or manual).
    public func followedReminderSettings() async throws -> ReminderSettings {
        try await store.followedReminders(try await store.reminderSettings(of: user), of: user,
                                          now: clock.now, zone: try await settings().zone)
    }

    /// The typical wake window of the last 7 days of sleep records; nil without any.
    public func sleepRecordWindow() async throws -> WakeWindow? {
        try await store.sleepRecordWindow(of: user, now: clock.now, zone: try await settings().zone)
    }

    /// The reminder times of today's window and the days after it, for showing.
    public func upcomingReminders(days: Int = 1) async throws -> [Date] {
        let settings = try await followedReminderSettings()
        guard settings.enabled else { return [] }
        let zone = try await self.settings().zone
        let now = clock.now
        let today = LocalDate(containing: now, in: zone)
        return (-1..<days).flatMap { settings.schedule.instants(startingOn: today.adding(days: $0), in: zone) }
            .filter { $0 > now }
    }
}

extension HealthRecordRepository {
    /// `settings` with the wake window the reminders follow at `now`: from the asleep intervals
    /// of the last 7 days when the user chose that and has some, otherwise their manual window.
    public func followedReminders(_ settings: ReminderSettings, of user: UUID, now: Date, zone: TimeZone) async throws -> ReminderSettings {
        guard settings.useSleepRecords else { return settings }
        return settings.resolved(asleep: try await recentAsleep(of: user, now: now), now: now, zone: zone)
    }

    /// The typical window of the sleep records of the 7 days before today, chosen or not; nil
    /// without any.
    public func sleepRecordWindow(of user: UUID, now: Date, zone: TimeZone) async throws -> WakeWindow? {
        SleepWindow.typical(asleep: try await recentAsleep(of: user, now: now), forDayOf: now, zone: zone)
    }

    private func recentAsleep(of user: UUID, now: Date) async throws -> [DateInterval] {
        // The 7 days before today, and a night that ended in them may have started the evening before.
        try await asleepIntervals(of: user, endingAfter: now.addingTimeInterval(-Double(SleepWindow.days + 2) * 86_400))
    }
}
