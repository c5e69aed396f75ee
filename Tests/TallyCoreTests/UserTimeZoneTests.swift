import Foundation
import Testing
@testable import TallyCore

/// H2: the day is counted in the user's IANA zone, a setting.
@Suite("UserTimeZone and clocks (H2)")
struct UserTimeZoneTests {
    @Test("H2: accepts IANA zone names", arguments: ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"])
    func acceptsIANANames(_ name: String) throws {
        let zone = try UserTimeZone.named(name)
        #expect(zone.identifier == name || (name == "UTC" && zone.secondsFromGMT() == 0))
        if name == "Europe/Berlin" {
            #expect(zone.secondsFromGMT(for: utc("2025-01-15T12:00:00Z")) == 3600)
            #expect(zone.secondsFromGMT(for: utc("2025-07-15T12:00:00Z")) == 7200)
        }
    }

    @Test("H2: refuses names that are not IANA zones, saying how to name one",
          arguments: ["Mars/Olympus", "", "Berlin", "Europe/Atlantis", "not a zone"])
    func refusesUnknownNames(_ name: String) throws {
        let error = try #require(throws: TallyError.self) { try UserTimeZone.named(name) }
        #expect(error.kind == .invalidInput)
        #expect(error.message.contains("IANA"))
        #expect(error.message.contains("Europe/Berlin"))
        if !name.isEmpty { #expect(error.message.contains(name)) }
    }

    @Test("H2: the machine's default is itself a name UserTimeZone accepts")
    func systemDefaultIsValid() throws {
        _ = try UserTimeZone.named(UserTimeZone.systemDefault)
    }

    @Test("H2: a settings zone that this machine no longer knows falls back to UTC")
    func settingsZoneFallback() {
        #expect(HydrationSettings(timeZone: "Europe/Berlin").zone.identifier == "Europe/Berlin")
        #expect(HydrationSettings(timeZone: "Mars/Olympus").zone.secondsFromGMT() == 0)
    }

    @Test("H2: a fixed clock says what it is told and moves only when moved")
    func fixedClock() {
        let clock = FixedClock(utc("2025-06-10T21:59:00Z"))
        #expect(clock.now == utc("2025-06-10T21:59:00Z"))
        #expect(LocalDate(containing: clock.now, in: Zones.berlin) == day("2025-06-10"))
        clock.advance(by: 60)
        #expect(clock.now == utc("2025-06-10T22:00:00Z"))
        // Midnight rolls over with no action (H2).
        #expect(LocalDate(containing: clock.now, in: Zones.berlin) == day("2025-06-11"))
        clock.set(utc("2030-01-01T00:00:00Z"))
        #expect(clock.now == utc("2030-01-01T00:00:00Z"))
    }

    @Test("Errors carry a kind and a message, and print as their message")
    func tallyError() {
        let error = TallyError.invalid("Say what to do.")
        #expect(error.kind == .invalidInput)
        #expect(error.description == "Say what to do.")
        #expect(TallyError.notFound("x").kind == .notFound)
        #expect(TallyError.conflict("x").kind == .conflict)
        #expect(TallyError.conflict("x") != TallyError.invalid("x"))
        #expect(TallyError.conflict("x") == TallyError(.conflict, "x"))
    }
}

@Suite("Zone names and calendar names")
struct ZoneAndCalendarNameTests {
    @Test("H2: a valid zone keeps the name it was given; an unknown one is refused")
    func validated() throws {
        #expect(try UserTimeZone.validated("UTC") == "UTC")
        #expect(try UserTimeZone.validated("Europe/Berlin") == "Europe/Berlin")
        #expect(throws: TallyError.self) { try UserTimeZone.validated("Mars/Olympus") }
    }

    @Test("English day and month names")
    func names() throws {
        let monday = try #require(LocalDate("2025-09-01"))
        #expect(monday.weekdayName == "Monday" && monday.shortWeekdayName == "Mon")
        #expect(monday.adding(days: 6).weekdayName == "Sunday")
        #expect(YearMonth("2025-01")?.monthName == "January" && YearMonth("2025-12")?.monthName == "December")
    }
}
