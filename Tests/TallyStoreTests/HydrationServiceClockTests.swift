import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// The service with the clock moved by hand: midnight and DST days through the real store (H2, H9).
@Suite("Hydration service over time")
struct HydrationServiceClockTests {
    @Test("H2: a drink at 23:59 stays on its day when viewed after midnight", arguments: StoreKind.allCases)
    func midnight(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, now: "2025-06-15T21:59:00Z") // 23:59 in Berlin
        try await f.hydration.logDrink(.init(volumeMl: 250))
        f.clock.set(instant("2025-06-15T22:01:00Z")) // 00:01 on the 16th
        let today = try await f.hydration.daySummary()
        #expect(today.date == day("2025-06-16"))
        #expect(today.totalMl == 0 && today.entries.isEmpty && today.percent == 0)
        #expect(try await f.hydration.daySummary(on: day("2025-06-15")).totalMl == 250)
        #expect(try await f.hydration.history().days.suffix(2).map(\.totalMl) == [250, 0])
    }

    @Test("H2: the 23-hour and 25-hour days count every drink once",
          arguments: [("Europe/Berlin", "2025-03-30", "2025-03-29T23:00:00Z", "2025-03-30T22:00:00Z"),
                      ("Europe/Berlin", "2025-10-26", "2025-10-25T22:00:00Z", "2025-10-26T23:00:00Z"),
                      ("America/New_York", "2025-03-09", "2025-03-09T05:00:00Z", "2025-03-10T04:00:00Z"),
                      ("America/New_York", "2025-11-02", "2025-11-02T04:00:00Z", "2025-11-03T05:00:00Z")])
    func dstDays(zone: String, date: String, start: String, end: String) async throws {
        let f = try await Fixture(.sqliteInMemory, now: "2025-12-01T12:00:00Z", zone: zone)
        // One drink a minute inside the day's first and last minutes, one just outside each end.
        try await f.hydration.logDrink(.init(volumeMl: 1, at: instant(start).addingTimeInterval(-60)))
        try await f.hydration.logDrink(.init(volumeMl: 10, at: instant(start)))
        try await f.hydration.logDrink(.init(volumeMl: 100, at: instant(end).addingTimeInterval(-60)))
        try await f.hydration.logDrink(.init(volumeMl: 1000, at: instant(end)))
        #expect(try await f.hydration.daySummary(on: day(date)).totalMl == 110)
        #expect(day(date).interval(in: TimeZone(identifier: zone)!) == DateInterval(start: instant(start), end: instant(end)))
    }

    @Test("H9: the current streak counts from yesterday while today is incomplete", arguments: StoreKind.allCases)
    func streak(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind, now: "2025-06-15T10:00:00Z")
        _ = try await f.hydration.setGoal(.custom(ml: 1000)) // from the 15th; earlier days: 2500
        for date in ["2025-06-12", "2025-06-13", "2025-06-14"] {
            try await f.hydration.logDrink(.init(volumeMl: 2500, at: instant(date + "T10:00:00Z")))
        }
        try await f.hydration.logDrink(.init(volumeMl: 2500, at: instant("2025-06-10T10:00:00Z")))
        try await f.hydration.logDrink(.init(volumeMl: 500))
        var history = try await f.hydration.history()
        #expect(history.streaks == Streaks(current: 3, longest: 3))
        try await f.hydration.logDrink(.init(volumeMl: 500))
        history = try await f.hydration.history()
        #expect(history.streaks.current == 4)
        #expect(history.days.last?.percent == 100)
        #expect(history.calendar.days.filter(\.progress.goalMet).map(\.progress.date.day) == [10, 12, 13, 14, 15])
    }

    @Test("A drink in the future is refused", arguments: StoreKind.allCases)
    func future(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        await #expect(throws: TallyError.self) {
            try await f.hydration.logDrink(.init(volumeMl: 100, at: f.clock.now.addingTimeInterval(3600)))
        }
        #expect(try await f.hydration.daySummary().entries.isEmpty)
    }
}

extension Streaks {
    init(current: Int, longest: Int) {
        self.init(metDays: [LocalDate](), today: LocalDate(year: 2000, month: 1, day: 1)!)
        self.current = current
        self.longest = longest
    }
}
