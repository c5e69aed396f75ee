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

    /// The reminder times of today's window and the days after it, for showing.
    public func upcomingReminders(days: Int = 1) async throws -> [Date] {
        let settings = try await store.reminderSettings(of: user)
        guard settings.enabled else { return [] }
        let zone = try await self.settings().zone
        let now = clock.now
        let today = LocalDate(containing: now, in: zone)
        return (-1..<days).flatMap { settings.schedule.instants(startingOn: today.adding(days: $0), in: zone) }
            .filter { $0 > now }
    }
}
