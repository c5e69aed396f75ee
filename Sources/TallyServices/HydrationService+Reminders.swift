import Foundation
import TallyCore
import TallyRepositories

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
}

extension HealthRecordRepository {
    /// The window each day around `now` starts with: from the sleep records known when that day
    /// began when the user chose them, otherwise the manual one.
    public func dayWindows(_ settings: ReminderSettings, of user: UUID, now: Date, zone: TimeZone) async throws -> DayWindows {
        guard settings.useSleepRecords else { return DayWindows(settings: settings, records: [], zone: zone) }
        return DayWindows(settings: settings, records: try await recentSleep(of: user, now: now), zone: zone)
    }

    /// The sleep records that any window around `now` is judged from.
    func recentSleep(of user: UUID, now: Date) async throws -> [SleepRecord] {
        // The 7 days before yesterday began, and a night that ended in them may have started the evening before.
        try await sleepRecords(of: user, endingAfter: now.addingTimeInterval(-Double(SleepWindow.days + 3) * 86_400))
    }
}
