import Foundation

/// A person's reminders (H11): whether they want them, when they are awake, how many a day, and
/// whether they are smart (only after a while without a drink).
public struct ReminderSettings: Equatable, Sendable {
    public var enabled: Bool
    public var window: WakeWindow
    public var frequency: Int
    /// Hours without a drink before a smart reminder (1–6); nil for reminders at fixed times.
    public var smartThresholdHours: Int?
    /// Whether the wake window comes from the sleep records imported from Apple Health; `window`
    /// is the fallback while there are none from the last 7 days.
    public var useSleepRecords: Bool

    public static let standard = ReminderSettings(enabled: false, window: .standard, frequency: 8, smartThresholdHours: nil)

    public init(enabled: Bool, window: WakeWindow, frequency: Int, smartThresholdHours: Int?, useSleepRecords: Bool = false) {
        self.enabled = enabled
        self.window = window
        self.frequency = frequency
        self.smartThresholdHours = smartThresholdHours
        self.useSleepRecords = useSleepRecords
    }

    /// The window the reminders follow, given the sleep records' typical one (nil without any).
    public func followedWindow(sleepRecords typical: WakeWindow?) -> WakeWindow {
        useSleepRecords ? typical ?? window : window
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
