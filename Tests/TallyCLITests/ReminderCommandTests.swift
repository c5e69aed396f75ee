import Foundation
import Testing

/// H11 from the command line: `tally reminders show|set`, the same settings as the API's and the
/// web's, changed only where an option says so.
@Suite("tally reminders")
struct ReminderCommandTests {
    /// 11:00 in Berlin on Wednesday 12 March 2025.
    static let now = "2025-03-12T10:00:00Z"

    @Test("H11: off, 07:00–23:00, 8 a day at fixed times until changed; --json is the API's document")
    func defaults() throws {
        let tally = try Sandbox(now: Self.now)
        let shown = try tally.object(["reminders"])
        #expect(shown["enabled"] as? Bool == false)
        #expect(shown["window"] as? [String: String] == ["wake": "07:00", "sleep": "23:00"])
        #expect(shown["followedWindow"] as? [String: String] == ["wake": "07:00", "sleep": "23:00"])
        #expect(shown["frequency"] as? Int == 8)
        #expect(shown["smartThresholdHours"] == nil || shown["smartThresholdHours"] is NSNull)
        #expect(shown["useSleepRecords"] as? Bool == false)
        #expect(shown["sleepRecordWindow"] is NSNull)
        #expect(shown["upcoming"] as? [String] == [])
        #expect(try tally.ok(["reminders", "show"]).stdout == """
            Reminders are off.
            Waking hours set by hand: 07:00–23:00.
            Sleep records: not followed.
            Reminders follow: 07:00–23:00.

            """)
    }

    @Test("H11: set changes what it is given and keeps the rest; the times still to come are shown")
    func set() throws {
        let tally = try Sandbox(now: Self.now)
        // 08:00–22:00, 6 a day: every 2 hours from 10:00; at 11:00, 12:00 is the next.
        let on = try tally.ok(["reminders", "set", "--on", "--wake", "08:00", "--sleep", "22:00", "--count", "6"])
        #expect(on.stdout == """
            Reminders are on: 6 a day at fixed times.
            Waking hours set by hand: 08:00–22:00.
            Sleep records: not followed.
            Reminders follow: 08:00–22:00.
            Next: 12:00, 14:00, 16:00, 18:00, 20:00.

            """)
        let json = try tally.object(["reminders"])
        #expect(json["upcoming"] as? [String] == ["2025-03-12T11:00:00Z", "2025-03-12T13:00:00Z", "2025-03-12T15:00:00Z",
                                                   "2025-03-12T17:00:00Z", "2025-03-12T19:00:00Z"])

        let smart = try tally.object(["reminders", "set", "--smart", "2", "--sleep-records"])
        #expect(smart["smartThresholdHours"] as? Int == 2 && smart["useSleepRecords"] as? Bool == true)
        #expect(smart["enabled"] as? Bool == true && smart["frequency"] as? Int == 6, "the rest kept: \(smart)")
        #expect(smart["window"] as? [String: String] == ["wake": "08:00", "sleep": "22:00"])
        // No sleep records yet: the hours set by hand apply.
        #expect(smart["followedWindow"] as? [String: String] == ["wake": "08:00", "sleep": "22:00"])
        #expect(smart["upcoming"] as? [String] == [], "smart reminders have no fixed times")
        #expect(try tally.ok(["reminders"]).stdout == """
            Reminders are on and smart: one after 2 hours without a drink, inside the waking hours, until the day's goal is met.
            Waking hours set by hand: 08:00–22:00.
            Sleep records: followed, but there are none from the last 7 days.
            Reminders follow: 08:00–22:00.

            """)

        // A window across midnight, back to fixed times, without sleep records, then off.
        let night = try tally.object(["reminders", "set", "--fixed", "--no-sleep-records", "--wake", "18:00", "--sleep", "02:00",
                                      "--frequency", "3"])
        #expect(night["smartThresholdHours"] == nil || night["smartThresholdHours"] is NSNull)
        #expect(night["useSleepRecords"] as? Bool == false)
        // 18:00–02:00, 3 a day: 20:00, 22:00, 00:00 (CET, UTC+1).
        #expect(night["upcoming"] as? [String] == ["2025-03-12T19:00:00Z", "2025-03-12T21:00:00Z", "2025-03-12T23:00:00Z"])
        let off = try tally.object(["reminders", "set", "--off"])
        #expect(off["enabled"] as? Bool == false && off["upcoming"] as? [String] == [])
        #expect(off["window"] as? [String: String] == ["wake": "18:00", "sleep": "02:00"] && off["frequency"] as? Int == 3)
    }

    @Test("H11: refused values say why in one sentence, exit 1 and change nothing")
    func refused() throws {
        let tally = try Sandbox(now: Self.now)
        try tally.ok(["reminders", "set", "--on", "--count", "4"])
        for (arguments, expected) in [
            (["--count", "0"], "1 to 24 times a day"),
            (["--count", "25"], "1 to 24 times a day"),
            (["--count", "many"], "whole number"),
            (["--smart", "7"], "1 to 6 hours"),
            (["--smart", "0", "--off"], "1 to 6 hours"),
            (["--smart", "2", "--fixed"], "not both"),
            (["--wake", "25:00"], "a time such as 07:00"),
            (["--sleep", "7am"], "a time such as 07:00"),
            (["--wake", "23:00"], "the same time"),
            ([], "Say what to change"),
        ] {
            let message = try tally.refused(["reminders", "set"] + arguments)
            #expect(message.contains(expected), "\(arguments): \(message)")
        }
        #expect(try tally.object(["reminders"])["frequency"] as? Int == 4)
    }
}
