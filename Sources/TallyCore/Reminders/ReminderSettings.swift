import Foundation

/// A person's reminders (H11): whether they want them, when they are awake, how many a day, and
/// whether they are smart (only after a while without a drink).
public struct ReminderSettings: Codable, Equatable, Sendable {
    public var enabled: Bool
    public var window: WakeWindow
    public var frequency: Int
    /// Hours without a drink before a smart reminder (1–6); nil for reminders at fixed times.
    public var smartThresholdHours: Int?

    public static let standard = ReminderSettings(enabled: false, window: .standard, frequency: 8, smartThresholdHours: nil)

    public init(enabled: Bool, window: WakeWindow, frequency: Int, smartThresholdHours: Int?) {
        self.enabled = enabled
        self.window = window
        self.frequency = frequency
        self.smartThresholdHours = smartThresholdHours
    }

    /// Checks the frequency and the threshold; a window of no length is refused too.
    public func validated() throws -> ReminderSettings {
        try ReminderSchedule.validate(frequency: frequency)
        if let smartThresholdHours { _ = try SmartReminder(thresholdHours: smartThresholdHours) }
        guard window.wake != window.sleep else {
            throw TallyError.invalid("Waking and going to sleep cannot be at the same time.")
        }
        return self
    }

    public var schedule: ReminderSchedule { ReminderSchedule(window: window, frequency: frequency) }
}
