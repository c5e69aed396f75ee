import Foundation
import TallyAPI
import TallyCore

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

    /// `settings` (the stored ones) with the windows they lead to and the fixed times still to
    /// come.
    public func reminders(_ settings: ReminderSettings) async throws -> RemindersView {
        RemindersView(settings: settings, sleepRecordWindow: try await sleepRecordWindow(),
                      followedWindow: try await followedWindow(settings), upcoming: try await upcomingReminders())
    }
}
