import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension HydrationService {
    /// The reminder settings as they are stored, with the windows they lead to and the times
    /// still to come: what the API answers and the command line shows.
    public func reminders() async throws -> RemindersView {
        try await reminders(try await reminderSettings())
    }

    /// Checks and saves `settings` (H11), and answers as `reminders()` does.
    public func saveReminders(_ settings: ReminderSettings) async throws -> RemindersView {
        try await reminders(try await saveReminderSettings(settings))
    }

    /// `settings` (the stored ones) with what they lead to, from one read of the sleep records:
    /// the window the records of the 7 days before today give as they stand now (records
    /// imported today included), the window today started with, and the fixed times still to come.
    public func reminders(_ settings: ReminderSettings) async throws -> RemindersView {
        let (now, zone) = (clock.now, try await self.settings().zone)
        let records = try await store.recentSleep(of: user, now: now)
        let windows = DayWindows(settings: settings, records: settings.useSleepRecords ? records : [], zone: zone)
        return RemindersView(settings: settings,
                             sleepRecordWindow: SleepWindow.typical(asleep: records.map(\.interval), forDayOf: now, zone: zone),
                             followedWindow: windows.window(startingOn: LocalDate(containing: now, in: zone)),
                             upcoming: windows.upcoming(after: now))
    }
}
