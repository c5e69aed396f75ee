import Foundation

/// A night from Apple Health's sleep records, and when Tally learned of it: a day's wake window
/// is judged from what was known when the day began (nil: known from the start, as records
/// imported before import times were kept).
public struct SleepRecord: Equatable, Sendable {
    public var interval: DateInterval
    public var importedAt: Date?

    public init(interval: DateInterval, importedAt: Date?) {
        self.interval = interval
        self.importedAt = importedAt
    }
}

/// The wake window each day starts with (H11). With the manual times it is the same every day;
/// following the sleep records, each day keeps the window of the records known when it began:
/// an import during the day moves the next day's window, not this one's, and the reminders of
/// a window that crosses midnight come from the day that window started on.
public struct DayWindows: Sendable {
    public let settings: ReminderSettings
    public let records: [SleepRecord]
    public let zone: TimeZone

    public init(settings: ReminderSettings, records: [SleepRecord], zone: TimeZone) {
        self.settings = settings
        self.records = records
        self.zone = zone
    }

    /// The window that starts on `day`.
    public func window(startingOn day: LocalDate) -> WakeWindow {
        guard settings.useSleepRecords else { return settings.window }
        let start = day.start(in: zone)
        let known = records.filter { $0.importedAt.map { $0 < start } ?? true }.map(\.interval)
        return settings.followedWindow(sleepRecords: SleepWindow.typical(asleep: known, now: start, zone: zone))
    }

    /// The reminder instants of the window that starts on `day`.
    public func reminders(startingOn day: LocalDate) -> [Date] {
        ReminderSchedule(window: window(startingOn: day), frequency: settings.frequency).instants(startingOn: day, in: zone)
    }

    /// The fixed reminder times still to come after `now`: of the window that started yesterday
    /// (it may run past midnight), today's and the `days - 1` after it. None while reminders are
    /// off or smart (those come after a while without a drink, at no fixed time).
    public func upcoming(after now: Date, days: Int = 1) -> [Date] {
        guard settings.enabled, settings.smartThresholdHours == nil else { return [] }
        let today = LocalDate(containing: now, in: zone)
        return (-1..<days).flatMap { reminders(startingOn: today.adding(days: $0)) }.filter { $0 > now }
    }

    /// The awake stretch that `instant` is in, with the day it started on: the window of that day
    /// or, after midnight, the one that started the day before. Nil while asleep.
    public func awake(at instant: Date) -> (day: LocalDate, interval: DateInterval)? {
        let today = LocalDate(containing: instant, in: zone)
        return [today, today.adding(days: -1)].lazy
            .map { (day: $0, interval: self.window(startingOn: $0).interval(startingOn: $0, in: self.zone)) }
            .first { $0.interval.start <= instant && instant < $0.interval.end }
    }
}
