import Foundation
import Testing
@testable import TallyCore

/// H11: reminder times in the wake window, smart reminders, and the window from sleep records,
/// across midnight and on the days clocks change.
@Suite("Reminders (H11)")
struct ReminderTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    func time(_ text: String) -> TimeOfDay { TimeOfDay(text)! }
    func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("H11: 07:00–23:00, 8 a day: every 1 h 46 min 40 s, rounded to the minute")
    func standardTimes() {
        #expect(ReminderSchedule.standard.times.map(\.description)
            == ["08:47", "10:33", "12:20", "14:07", "15:53", "17:40", "19:27", "21:13"])
    }

    @Test("H11: wake + k × window ÷ (N+1)", arguments: [
        ("07:00", "23:00", 1, ["15:00"]),
        ("07:00", "23:00", 3, ["11:00", "15:00", "19:00"]),
        ("08:00", "20:00", 5, ["10:00", "12:00", "14:00", "16:00", "18:00"]),
        // Across midnight: a night shift from 22:00 to 06:00.
        ("22:00", "06:00", 3, ["00:00", "02:00", "04:00"]),
        ("20:00", "02:00", 2, ["22:00", "00:00"]),
    ])
    func times(_ wake: String, _ sleep: String, _ count: Int, _ expected: [String]) {
        let schedule = ReminderSchedule(window: WakeWindow(wake: time(wake), sleep: time(sleep)), frequency: count)
        #expect(schedule.times.map(\.description) == expected)
    }

    @Test("H11: a window across midnight puts the late reminders on the next day")
    func crossingMidnight() {
        let schedule = ReminderSchedule(window: WakeWindow(wake: time("22:00"), sleep: time("06:00")), frequency: 3)
        let instants = schedule.instants(startingOn: LocalDate(year: 2026, month: 1, day: 10)!, in: berlin)
        #expect(instants == [instant("2026-01-10T23:00:00Z"), instant("2026-01-11T01:00:00Z"), instant("2026-01-11T03:00:00Z")])
        #expect(WakeWindow(wake: time("22:00"), sleep: time("06:00")).minutes == 480)
    }

    @Test("H11: on the day clocks go forward, reminders keep their clock times")
    func springForward() {
        // Berlin, 2026-03-29: 02:00 becomes 03:00, so the day has 23 hours.
        let schedule = ReminderSchedule(window: WakeWindow(wake: time("01:00"), sleep: time("05:00")), frequency: 3)
        #expect(schedule.times.map(\.description) == ["02:00", "03:00", "04:00"])
        let instants = schedule.instants(startingOn: LocalDate(year: 2026, month: 3, day: 29)!, in: berlin)
        // 02:00 does not exist that day: it comes right after the gap, at 03:00 (01:00 UTC).
        #expect(instants[1] == instant("2026-03-29T01:00:00Z"))
        #expect(instants[2] == instant("2026-03-29T02:00:00Z"))
        #expect(instants[0] <= instants[1])
        let standard = ReminderSchedule.standard.instants(startingOn: LocalDate(year: 2026, month: 3, day: 29)!, in: berlin)
        #expect(standard.first == instant("2026-03-29T06:47:00Z")) // 08:47 summer time
    }

    @Test("A time of day is written HH:MM, two digits each, at every minute of the day")
    func timeOfDayText() throws {
        for minutes in 0..<(24 * 60) {
            let time = try #require(TimeOfDay(hour: minutes / 60, minute: minutes % 60))
            #expect(time.description == String(format: "%02d:%02d", minutes / 60, minutes % 60))
        }
    }

    @Test("The time of day of an instant in a zone, to the minute: the inverse of instant(on:in:), across a change of clocks")
    func timeOfDayOfAnInstant() {
        #expect(TimeOfDay(of: instant("2026-11-26T20:05:59Z"), in: berlin).description == "21:05")
        #expect(TimeOfDay(of: instant("2026-03-29T01:30:00Z"), in: berlin).description == "03:30", "summer time began at 01:00 UTC")
        #expect(TimeOfDay(of: instant("2026-10-25T00:30:00Z"), in: berlin).description == "02:30", "the first 02:30 of the autumn night")
        #expect(TimeOfDay(of: instant("2026-10-25T01:30:00Z"), in: berlin).description == "02:30", "and the second")
        let day = LocalDate(year: 2026, month: 6, day: 15)!
        #expect(TimeOfDay(of: time("07:45").instant(on: day, in: berlin), in: berlin) == time("07:45"))
    }

    @Test("The time of day of any instant in any zone is the one Foundation's calendar gives")
    func timeOfDayAsTheCalendarCountsIt() {
        var generator = SystemRandomNumberGenerator()
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "UTC",
                     "America/St_Johns", "Asia/Kathmandu"].map { TimeZone(identifier: $0)! } + [TimeZone(secondsFromGMT: -37)!]
        // From before 1583 (Julian days) to after 9999, with fractions of a second around midnight.
        for _ in 0..<5_000 {
            let instant = Date(timeIntervalSinceReferenceDate: Double.random(in: -20_000_000_000...260_000_000_000, using: &generator))
            for zone in zones {
                let parts = Calendar.gregorian(zone).dateComponents([.hour, .minute], from: instant)
                #expect(TimeOfDay(of: instant, in: zone).minutes == parts.hour! * 60 + parts.minute!, "\(instant) \(zone.identifier)")
            }
        }
        for seconds in [-0.5, -0.000001, 0, 59.999999, 86_399.9999, -86_400.5] {
            let instant = Date(timeIntervalSinceReferenceDate: seconds)
            let parts = Calendar.gregorian(.gmt).dateComponents([.hour, .minute], from: instant)
            #expect(TimeOfDay(of: instant, in: .gmt).minutes == parts.hour! * 60 + parts.minute!, "\(seconds)")
        }
    }

    @Test("H11: on the day clocks go back, reminders keep their clock times too")
    func fallBack() {
        let standard = ReminderSchedule.standard.instants(startingOn: LocalDate(year: 2026, month: 10, day: 25)!, in: berlin)
        #expect(standard.first == instant("2026-10-25T07:47:00Z")) // 08:47 winter time
        #expect(standard.count == 8)
    }

    @Test("H11: 1 to 24 reminders a day, and smart thresholds of 1 to 6 hours")
    func ranges() throws {
        #expect(throws: TallyError.self) { try ReminderSchedule.validate(frequency: 0) }
        #expect(throws: TallyError.self) { try ReminderSchedule.validate(frequency: 25) }
        try ReminderSchedule.validate(frequency: 24)
        #expect(throws: TallyError.self) { try SmartReminder(thresholdHours: 0) }
        #expect(throws: TallyError.self) { try SmartReminder(thresholdHours: 7) }
    }

    @Test("H11: a smart reminder comes after the threshold without a drink, inside the window, before the goal")
    func smart() throws {
        let smart = try SmartReminder(thresholdHours: 2)
        let window = WakeWindow.standard
        // 07:00 Berlin is 06:00 UTC in winter.
        #expect(!smart.isDue(now: instant("2026-01-10T07:59:00Z"), lastLog: nil, window: window, zone: berlin, goalMet: false))
        #expect(smart.isDue(now: instant("2026-01-10T08:00:00Z"), lastLog: nil, window: window, zone: berlin, goalMet: false))
        // A drink at 09:30 starts the wait again.
        let drink = instant("2026-01-10T08:30:00Z")
        #expect(!smart.isDue(now: instant("2026-01-10T10:29:00Z"), lastLog: drink, window: window, zone: berlin, goalMet: false))
        #expect(smart.isDue(now: instant("2026-01-10T10:30:00Z"), lastLog: drink, window: window, zone: berlin, goalMet: false))
        // None once the goal is met, and none outside the window (23:30).
        #expect(!smart.isDue(now: instant("2026-01-10T10:30:00Z"), lastLog: drink, window: window, zone: berlin, goalMet: true))
        #expect(!smart.isDue(now: instant("2026-01-10T22:30:00Z"), lastLog: drink, window: window, zone: berlin, goalMet: false))
        // Yesterday's last drink does not count against this morning.
        #expect(!smart.isDue(now: instant("2026-01-11T07:00:00Z"), lastLog: instant("2026-01-10T21:00:00Z"),
                             window: window, zone: berlin, goalMet: false))
    }

    @Test("H11: a smart reminder in a window across midnight")
    func smartAcrossMidnight() throws {
        let smart = try SmartReminder(thresholdHours: 1)
        let night = WakeWindow(wake: time("22:00"), sleep: time("06:00"))
        // 00:30 Berlin (23:30 UTC the day before), nothing since waking at 22:00.
        #expect(smart.isDue(now: instant("2026-01-10T23:30:00Z"), lastLog: nil, window: night, zone: berlin, goalMet: false))
        #expect(!smart.isDue(now: instant("2026-01-11T12:00:00Z"), lastLog: nil, window: night, zone: berlin, goalMet: false))
    }

    @Test("H11: the window from a week of sleep records: median bedtime across midnight, median waking")
    func fromSleep() {
        // Nights in Berlin winter time (UTC+1): bedtimes 23:00, 23:30, 00:30, 00:00, 23:45; waking
        // 06:30, 07:00, 07:15, 06:45, 07:00. One night has a wake-up at 03:00 in the middle.
        let nights: [(String, String)] = [
            ("2026-01-04T22:00:00Z", "2026-01-05T05:30:00Z"),
            ("2026-01-05T22:30:00Z", "2026-01-06T02:00:00Z"), ("2026-01-06T02:20:00Z", "2026-01-06T06:00:00Z"),
            ("2026-01-06T23:30:00Z", "2026-01-07T06:15:00Z"),
            ("2026-01-07T23:00:00Z", "2026-01-08T05:45:00Z"),
            ("2026-01-08T22:45:00Z", "2026-01-09T06:00:00Z"),
            // Older than a week: left out.
            ("2025-12-20T18:00:00Z", "2025-12-21T03:00:00Z"),
        ]
        let asleep = nights.map { DateInterval(start: instant($0.0), end: instant($0.1)) }
        let window = SleepWindow.typical(asleep: asleep, now: instant("2026-01-09T12:00:00Z"), zone: berlin)
        #expect(window == WakeWindow(wake: time("07:00"), sleep: time("23:45")))
        #expect(SleepWindow.typical(asleep: [], now: instant("2026-01-09T12:00:00Z"), zone: berlin) == nil)
        #expect(SleepWindow.typical(asleep: Array(asleep.suffix(1)), now: instant("2026-01-09T12:00:00Z"), zone: berlin) == nil)
    }

    @Test("H11: naps do not move the window from sleep records")
    func naps() {
        // Seven nights 23:00–07:00 Berlin (UTC+1) and a 40-minute nap at 14:00 each day.
        let days = (1...7).map { instant("2026-01-0\($0)T00:00:00Z") }
        let nights = days.map { DateInterval(start: $0.addingTimeInterval(-2 * 3600), end: $0.addingTimeInterval(6 * 3600)) }
        let naps = days.map { DateInterval(start: $0.addingTimeInterval(13 * 3600), duration: 40 * 60) }
        let window = SleepWindow.typical(asleep: nights + naps, now: instant("2026-01-07T20:00:00Z"), zone: berlin)
        #expect(window == WakeWindow(wake: time("07:00"), sleep: time("23:00")))
    }

    @Test("H11: the window from sleep records in local time across the spring DST change, the same all day")
    func sleepAcrossDST() {
        // Asleep 23:30–06:45 Berlin each night from 26 March to 2 April 2024; the clocks went
        // forward on the night to 31 March, so the nights before end at 05:45 UTC and after at 04:45.
        let nights = (26...32).map { day -> DateInterval in
            let morning = day <= 31 ? "2024-03-\(day)" : "2024-04-0\(day - 31)"
            let summer = day >= 31
            let end = instant("\(morning)T0\(summer ? 4 : 5):45:00Z")
            let start = end.addingTimeInterval(-(7 * 3600 + 15 * 60) + (day == 31 ? 3600 : 0))
            return DateInterval(start: start, end: end)
        }
        let expected = WakeWindow(wake: time("06:45"), sleep: time("23:30"))
        // Any time on 3 April: the nights that ended before that day began.
        for now in ["2024-04-02T22:05:00Z", "2024-04-03T12:00:00Z", "2024-04-03T21:55:00Z"] {
            #expect(SleepWindow.typical(asleep: nights, forDayOf: instant(now), zone: berlin) == expected, "\(now)")
        }
        // A night that ends on the morning of 3 April (at 04:00) changes nothing until 4 April.
        let early = DateInterval(start: instant("2024-04-02T20:00:00Z"), end: instant("2024-04-03T02:00:00Z"))
        #expect(SleepWindow.typical(asleep: nights + [early], forDayOf: instant("2024-04-03T21:55:00Z"), zone: berlin) == expected)
    }

    @Test("H11: the sleep records' window only when chosen, and the manual one while there are none")
    func chosenWindow() {
        let night = DateInterval(start: instant("2026-01-08T22:45:00Z"), end: instant("2026-01-09T06:00:00Z"))
        let now = instant("2026-01-10T12:00:00Z") // the day after the night
        let today = LocalDate(containing: now, in: berlin)
        let record = [SleepRecord(interval: night, importedAt: nil)]
        var settings = ReminderSettings(enabled: true, window: .standard, frequency: 8, smartThresholdHours: nil)
        #expect(DayWindows(settings: settings, records: record, zone: berlin).window(startingOn: today) == .standard)
        settings.useSleepRecords = true
        #expect(DayWindows(settings: settings, records: record, zone: berlin).window(startingOn: today)
                == WakeWindow(wake: time("07:00"), sleep: time("23:45")))
        #expect(DayWindows(settings: settings, records: record, zone: berlin).reminders(startingOn: today).first
                == time("08:52").instant(on: today, in: berlin))
        #expect(DayWindows(settings: settings, records: [], zone: berlin).window(startingOn: today) == .standard)
    }

    /// Seven nights like a night shift's: asleep 08:00–15:00 Berlin, so awake 15:00–08:00, a
    /// window that crosses midnight.
    static func dayShiftNights(before day: LocalDate, zone: TimeZone, importedAt: Date?) -> [SleepRecord] {
        (1...7).map { back in
            let date = day.adding(days: -back)
            let start = TimeOfDay(hour: 8, minute: 0)!.instant(on: date, in: zone)
            let end = TimeOfDay(hour: 15, minute: 0)!.instant(on: date, in: zone)
            return SleepRecord(interval: DateInterval(start: start, end: end), importedAt: importedAt)
        }
    }

    @Test("H11: after midnight, yesterday's window (crossing midnight) keeps its own reminders, not today's")
    func yesterdaysWindowAfterMidnight() throws {
        let settings = ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil, useSleepRecords: true)
        let tenth = LocalDate(year: 2026, month: 1, day: 10)!
        // Records known from the start, the last night ending on the 9th: the 10th starts with
        // the 15:00–08:00 window; the 11th, whose 7 days hold one more such night, too.
        let known = Self.dayShiftNights(before: tenth, zone: berlin, importedAt: nil)
        // A different pattern recorded on the 10th itself (asleep 23:00–07:00), imported that day.
        let tenthNight = SleepRecord(interval: DateInterval(start: time("23:00").instant(on: tenth.adding(days: -1), in: berlin),
                                                            end: time("07:00").instant(on: tenth, in: berlin)),
                                     importedAt: time("12:00").instant(on: tenth, in: berlin))
        let windows = DayWindows(settings: settings, records: known + [tenthNight], zone: berlin)
        let crossing = WakeWindow(wake: time("15:00"), sleep: time("08:00"))
        #expect(windows.window(startingOn: tenth) == crossing)
        // The 10th's window runs to 08:00 on the 11th; its third reminder falls after midnight,
        // at 15:00 + 3 × 17 h ÷ 4 = 03:45 on the 11th, whatever the 11th's own window is.
        let tenthReminders = windows.reminders(startingOn: tenth)
        #expect(tenthReminders == [time("19:15").instant(on: tenth, in: berlin), time("23:30").instant(on: tenth, in: berlin),
                                   time("03:45").instant(on: tenth.adding(days: 1), in: berlin)])
        // At 02:00 on the 11th the awake stretch is the one that started on the 10th.
        let twoAM = time("02:00").instant(on: tenth.adding(days: 1), in: berlin)
        #expect(windows.awake(at: twoAM)?.day == tenth)
    }

    @Test("H11: an import during the day moves the next day's window, never the one the day started with")
    func importDuringTheDay() throws {
        let settings = ReminderSettings(enabled: true, window: .standard, frequency: 2, smartThresholdHours: nil, useSleepRecords: true)
        let day = LocalDate(year: 2026, month: 1, day: 10)!
        let noon = time("12:00").instant(on: day, in: berlin)
        let nights = Self.dayShiftNights(before: day, zone: berlin, importedAt: noon)
        let windows = DayWindows(settings: settings, records: nights, zone: berlin)
        // Imported at noon on the 10th: the 10th keeps the manual window it started with…
        #expect(windows.window(startingOn: day) == .standard)
        #expect(windows.reminders(startingOn: day) == ReminderSchedule(window: .standard, frequency: 2).instants(startingOn: day, in: berlin))
        // …and the 11th starts with the records' window.
        #expect(windows.window(startingOn: day.adding(days: 1)) == WakeWindow(wake: time("15:00"), sleep: time("08:00")))
        // The same records known before the 10th began move the 10th too.
        let earlier = DayWindows(settings: settings, records: Self.dayShiftNights(before: day, zone: berlin, importedAt: noon.addingTimeInterval(-86_400)),
                                 zone: berlin)
        #expect(earlier.window(startingOn: day) == WakeWindow(wake: time("15:00"), sleep: time("08:00")))
    }

    @Test("H11: across the spring DST change, a window that crosses midnight keeps its clock times and its day")
    func windowAcrossDST() throws {
        // Berlin moves from 02:00 to 03:00 on 29 March 2026. A 22:00–06:00 night-shift window
        // starting on the 28th ends at 06:00 on the 29th, an hour shorter in real time.
        let settings = ReminderSettings(enabled: true, window: WakeWindow(wake: time("22:00"), sleep: time("06:00")),
                                        frequency: 3, smartThresholdHours: nil)
        let windows = DayWindows(settings: settings, records: [], zone: berlin)
        let saturday = LocalDate(year: 2026, month: 3, day: 28)!
        let reminders = windows.reminders(startingOn: saturday)
        // Clock times 00:00, 02:00, 04:00; 02:00 does not exist that night and comes out as 03:00 summer time.
        #expect(reminders.count == 3)
        #expect(reminders[0] == time("00:00").instant(on: saturday.adding(days: 1), in: berlin))
        #expect(reminders[2] == time("04:00").instant(on: saturday.adding(days: 1), in: berlin))
        #expect(reminders == reminders.sorted())
        let interval = windows.window(startingOn: saturday).interval(startingOn: saturday, in: berlin)
        #expect(interval.duration == 7 * 3600)
        #expect(windows.awake(at: time("05:30").instant(on: saturday.adding(days: 1), in: berlin))?.day == saturday)
        #expect(windows.awake(at: time("07:00").instant(on: saturday.adding(days: 1), in: berlin)) == nil)
    }
}

/// H11: the iCalendar feed (RFC 5545): one event with an alarm per reminder of the coming days.
@Suite("Calendar feed (H11)")
struct CalendarFeedTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The feed read back: each event's start and whether it has a display alarm.
    func events(_ ics: String) -> [(start: String, alarm: Bool)] {
        let unfolded = ics.replacingOccurrences(of: "\r\n ", with: "")
        var events: [(String, Bool)] = []
        var start: String?
        var alarm = false
        for line in unfolded.components(separatedBy: "\r\n") {
            if line == "BEGIN:VEVENT" { start = nil; alarm = false }
            if line.hasPrefix("DTSTART:") { start = String(line.dropFirst(8)) }
            if line == "ACTION:DISPLAY" { alarm = true }
            if line == "END:VEVENT", let start { events.append((start, alarm)) }
        }
        return events
    }

    @Test("H11: an event and an alarm per reminder, at the scheduled times in the user's zone")
    func feed() throws {
        let settings = ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil)
        let now = ISO8601DateFormatter().date(from: "2026-03-28T12:00:00Z")!
        let ics = CalendarFeed.ics(DayWindows(settings: settings, records: [], zone: berlin), from: LocalDate(year: 2026, month: 3, day: 28)!, now: now, name: "ada")
        #expect(ics.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
        let found = events(ics)
        // 11:00, 15:00, 19:00 Berlin; today's 11:00 (10:00 UTC) is past. The 29th is the
        // first day of summer time: the clock times stay, so UTC moves an hour.
        #expect(found.prefix(4).map(\.start) == ["20260328T140000Z", "20260328T180000Z", "20260329T090000Z", "20260329T130000Z"])
        #expect(found.count == 3 * CalendarFeed.days - 1)
        #expect(found.allSatisfy { $0.alarm })
        #expect(ics.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    }

    @Test("H11: reminders turned off give an empty calendar")
    func off() {
        let ics = CalendarFeed.ics(DayWindows(settings: .standard, records: [], zone: berlin), from: LocalDate(year: 2026, month: 3, day: 28)!, now: Date(), name: "ada")
        #expect(events(ics).isEmpty && ics.contains("X-WR-CALNAME:Tally: drink water (ada)"))
    }

    @Test("RFC 5545: long lines fold at 75 octets without splitting a character")
    func folding() {
        let line = "X-WR-CALNAME:" + String(repeating: "é", count: 60)
        let folded = CalendarFeed.fold(line)
        #expect(folded.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == line)
        #expect(CalendarFeed.escape("a,b;c\\d") == "a\\,b\\;c\\\\d")
    }
}
