import Foundation

/// The part of the day reminders may come in (H11): from waking to going to sleep. A window may
/// cross midnight (22:00–06:00 for a night shift).
public struct WakeWindow: Equatable, Sendable {
    public var wake: TimeOfDay
    public var sleep: TimeOfDay

    public static let standard = WakeWindow(wake: TimeOfDay(hour: 7, minute: 0)!, sleep: TimeOfDay(hour: 23, minute: 0)!)

    public init(wake: TimeOfDay, sleep: TimeOfDay) {
        self.wake = wake
        self.sleep = sleep
    }

    /// How long it is awake, in minutes: over midnight when sleep comes before wake on the clock.
    public var minutes: Int {
        let length = sleep.minutes - wake.minutes
        return length > 0 ? length : length + 1440
    }

    /// The window that starts on `day` (it ends on the next day when it crosses midnight).
    public func interval(startingOn day: LocalDate, in zone: TimeZone) -> DateInterval {
        let start = wake.instant(on: day, in: zone)
        let end = sleep.instant(on: sleep.minutes > wake.minutes ? day : day.adding(days: 1), in: zone)
        return DateInterval(start: start, end: max(end, start))
    }

    /// Whether `instant` is awake time: inside the window that started that day or the day before.
    public func contains(_ instant: Date, in zone: TimeZone) -> Bool {
        let day = LocalDate(containing: instant, in: zone)
        return [day, day.adding(days: -1)].contains { start in
            let interval = interval(startingOn: start, in: zone)
            return interval.start <= instant && instant < interval.end
        }
    }
}

/// When reminders come (H11): N a day, evenly inside the wake window, at
/// wake + k × window ÷ (N + 1) for k = 1…N, so none falls on waking or on going to sleep.
public struct ReminderSchedule: Equatable, Sendable {
    public var window: WakeWindow
    public var frequency: Int

    public static let frequencies = 1...24
    public static let standard = ReminderSchedule(window: .standard, frequency: 8)

    public init(window: WakeWindow, frequency: Int) {
        self.window = window
        self.frequency = frequency
    }

    public static func validate(frequency: Int) throws {
        guard frequencies.contains(frequency) else {
            throw TallyError.invalid("Reminders come 1 to 24 times a day; \(frequency) is out of range.")
        }
    }

    /// The reminders' clock times, to the minute, in the order they come.
    public var times: [TimeOfDay] {
        let interval = Double(window.minutes) / Double(frequency + 1)
        return (1...max(frequency, 1)).map { k in
            TimeOfDay(minutesAfterMidnight: window.wake.minutes + Int((Double(k) * interval).rounded()))
        }
    }

    /// The instants of the reminders of the window that starts on `day`: the clock times of a
    /// window that crosses midnight fall on the next day after it.
    public func instants(startingOn day: LocalDate, in zone: TimeZone) -> [Date] {
        times.map { time in
            let offset = (time.minutes - window.wake.minutes + 1440) % 1440
            let crossed = window.wake.minutes + offset >= 1440
            return time.instant(on: crossed ? day.adding(days: 1) : day, in: zone)
        }
    }
}

/// Smart reminders (H11): only when nothing was logged for the threshold, only inside the wake
/// window, and none once the day's goal is met. Logging a drink starts the wait again.
public struct SmartReminder: Equatable, Sendable {
    /// How long without a drink before a reminder, 1 to 6 hours.
    public var thresholdHours: Int

    public static let thresholds = 1...6

    public init(thresholdHours: Int) throws {
        guard Self.thresholds.contains(thresholdHours) else {
            throw TallyError.invalid("A smart reminder waits 1 to 6 hours without a drink; \(thresholdHours) is out of range.")
        }
        self.thresholdHours = thresholdHours
    }

    /// Whether a reminder is due at `now` with the same window every day.
    public func isDue(now: Date, lastLog: Date?, window: WakeWindow, zone: TimeZone, goalMet: Bool) -> Bool {
        let settings = ReminderSettings(enabled: true, window: window, frequency: 1, smartThresholdHours: thresholdHours)
        return isDue(now: now, lastLog: lastLog, windows: DayWindows(settings: settings, records: [], zone: zone), goalMet: goalMet)
    }

    /// Whether a reminder is due at `now`. `lastLog` is the last drink (nil: none yet, so the wait
    /// counts from waking); the awake stretch is the one `windows` gives for `now`.
    public func isDue(now: Date, lastLog: Date?, windows: DayWindows, goalMet: Bool) -> Bool {
        quietSince(now: now, lastLog: lastLog, windows: windows, goalMet: goalMet) != nil
    }

    /// When the quiet stretch that makes a reminder due at `now` began; nil when none is due.
    public func quietSince(now: Date, lastLog: Date?, windows: DayWindows, goalMet: Bool) -> Date? {
        guard !goalMet, let awake = windows.awake(at: now) else { return nil }
        let since = max(lastLog ?? awake.interval.start, awake.interval.start)
        return now.timeIntervalSince(since) >= Double(thresholdHours) * 3600 ? since : nil
    }
}
