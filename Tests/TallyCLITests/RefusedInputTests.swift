import Foundation
import Testing

/// Input Tally refuses: a non-zero exit code, one sentence on stderr, nothing printed on stdout
/// and nothing changed in the database (A5, with the rule each input breaks).
@Suite("refused input")
struct RefusedInputTests {
    // H1: a drink is more than 0 ml and at most 5000 ml; text that is not an amount is refused.
    @Test func drinkAmounts() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "250"])
        for (typed, expected) in [
            ("-100", "more than 0 ml"),
            ("0", "more than 0 ml"),
            ("0ml", "more than 0 ml"),
            ("abc", "is not an amount"),
            ("12kg", "is not an amount"),
            ("6000", "at most 5000 ml"),
            ("5000.5ml", "at most 5000 ml"),
            ("200oz", "at most 5000 ml"),
        ] {
            let message = try tally.refused(["drink", typed])
            #expect(message.contains(expected), "\(typed): \(message)")
        }
    }

    // H1: 5000 ml (169.07 oz) is still a valid drink: the limit itself is allowed.
    @Test func largestDrink() throws {
        let tally = try Sandbox()
        #expect(try tally.json(["drink", "5000"], as: EntryResultJSON.self).entry.volumeMl == 5000)
    }

    // H3: a removal has the same limits as a drink.
    @Test func removalAmount() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "250"])
        #expect(try tally.refused(["remove", "-100"]).contains("more than 0 ml"))
        #expect(try tally.refused(["remove", "abc"]).contains("is not an amount"))
        #expect(try tally.refused(["remove", "6000"]).contains("at most 5000 ml"))
    }

    // H6: a kind that does not exist is refused, naming the kinds there are.
    @Test func unknownKind() throws {
        let tally = try Sandbox()
        let message = try tally.refused(["drink", "250", "--kind", "beer"], exit: 2)
        #expect(message.contains("beer"))
        #expect(message.contains("coffee"))
    }

    // H7: age 10–120 and weight 30–300 kg; out of range is refused with the range in the message.
    @Test func goalCalcRange() throws {
        let tally = try Sandbox()
        for (args, expected) in [
            (["--age", "9", "--weight", "70"], "between 10 and 120"),
            (["--age", "121", "--weight", "70"], "between 10 and 120"),
            (["--age", "40", "--weight", "29.9"], "between 30 and 300"),
            (["--age", "40", "--weight", "301"], "between 30 and 300"),
        ] {
            let message = try tally.refused(["goal", "calc"] + args + ["--activity", "moderate"])
            #expect(message.contains(expected), "\(args): \(message)")
        }
    }

    // H7: the same ranges when saving a profile; an unknown activity level names the levels.
    @Test func profileRange() throws {
        let tally = try Sandbox()
        try tally.ok(["profile", "set", "--age", "40", "--weight", "70", "--activity", "light"])
        #expect(try tally.refused(["profile", "set", "--age", "5", "--weight", "70", "--activity", "light"])
            .contains("between 10 and 120"))
        #expect(try tally.refused(["profile", "set", "--age", "40", "--weight", "400", "--activity", "light"])
            .contains("between 30 and 300"))
        #expect(try tally.refused(["profile", "set", "--age", "40", "--weight", "heavy", "--activity", "light"])
            .contains("must be a number"))
        #expect(try tally.refused(["profile", "set", "--age", "40", "--weight", "70", "--activity", "couch"])
            .contains("sedentary"))
        #expect(try tally.json(["profile", "show"], as: GoalStatusJSON.self).profile?.age == 40)
    }

    // H2: the time zone is an IANA name Tally knows.
    @Test func unknownTimeZone() throws {
        let tally = try Sandbox()
        let message = try tally.refused(["settings", "set", "timezone", "Mars/Olympus"])
        #expect(message.contains("Mars/Olympus"))
        #expect(try tally.json(["settings"], as: SettingsJSON.self).timeZone == "Europe/Berlin")
        try tally.refused(["settings", "set", "unit", "gallons"])
        try tally.refused(["settings", "set", "colour", "blue"])
    }

    // H1: a drink cannot be logged ahead of the clock.
    @Test func futureTime() throws {
        let tally = try Sandbox(now: "2025-03-12T10:00:00Z") // 11:00 in Berlin
        try tally.ok(["drink", "250"])
        #expect(try tally.refused(["drink", "250", "--at", "12:00"]).contains("future"))
        #expect(try tally.refused(["drink", "250", "--at", "2025-03-13T08:00:00Z"]).contains("future"))
        #expect(try tally.refused(["remove", "100", "--at", "2025-03-12T11:00:00Z"]).contains("future"))
        // Unreadable times are refused too.
        #expect(try tally.refused(["drink", "250", "--at", "25:00"]).contains("is not a time"))
        #expect(try tally.refused(["drink", "250", "--at", "noon"]).contains("is not a time"))
        // A time a moment ago is fine.
        try tally.ok(["drink", "250", "--at", "10:59"])
    }

    // H1: one amount per drink.
    @Test func twoAmounts() throws {
        let tally = try Sandbox()
        try tally.refused(["drink", "250", "300"])
    }

    // A5: the clock itself must be readable.
    @Test func badClock() throws {
        let tally = try Sandbox()
        let result = try tally.run(["today"], now: "yesterday")
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("TALLY_NOW"))
    }

    // A5: argument-parser usage errors exit 64.
    @Test func usageErrors() throws {
        let tally = try Sandbox()
        for args in [["drink"], ["frobnicate"], ["goal", "calc", "--age", "40"], ["goal", "calc", "--age", "old",
                     "--weight", "70", "--activity", "light"]] {
            let result = try tally.run(args)
            #expect(result.exitCode == 64, "\(result)")
            #expect(!result.stderr.isEmpty)
        }
    }
}

/// `tally serve` refuses an address it could not use, before it listens or opens anything.
@Suite("refused server settings")
struct RefusedServeSettingsTests {
    @Test func publicURLAndTrustedProxies() throws {
        let tally = try Sandbox()
        try tally.ok(["drink", "250"])
        for (args, expected) in [
            (["serve", "--port", "1", "--public-url", "tally.example.com"], "public URL must be http(s)://HOST"),
            (["serve", "--port", "1", "--public-url", "https://tally.example.com/app?x=1"], "public URL must be http(s)://HOST"),
            (["serve", "--port", "1", "--trusted-proxy", "10.0.0.0/33"], "trusted proxy is an IP address or a range"),
            (["serve", "--port", "1", "--trusted-proxy", "proxy.local"], "trusted proxy is an IP address or a range"),
        ] {
            let message = try tally.refused(args)
            #expect(message.contains(expected), "\(args): \(message)")
        }
    }
}
