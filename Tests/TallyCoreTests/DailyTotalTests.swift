import Foundation
import Testing
@testable import TallyCore

/// H2 (daily total) and H3 (removing water), the unit tests of seed 000.
@Suite("Daily total (H2, H3; seed 000)")
struct DailyTotalTests {
    let morning = utc("2025-06-10T06:00:00Z")   // 08:00 in Berlin

    @Test("H2 seed 000 #1: updating a day with positive amounts adds their effective hydration")
    func positiveAmounts() {
        var entries: [DayEntry] = []
        #expect(DailyTotal.sum(entries) == 0)
        entries.append(intake(250, at: morning))
        #expect(DailyTotal.sum(entries) == 250)
        entries.append(intake(500, at: morning + 3600))
        #expect(DailyTotal.sum(entries) == 750)
        entries.append(intake(200, coffee, at: morning + 7200))
        #expect(isClose(DailyTotal.sum(entries), 920))
    }

    @Test("H3 seed 000 #2: updating a day with negative amounts (a removal) lowers the total")
    func negativeAmounts() {
        let entries = [intake(500, at: morning), removal(200, at: morning + 60)]
        #expect(DailyTotal.sum(entries) == 300)
        #expect(entries[1].contributionMl == -200)
        #expect(entries[0].contributionMl == 500)
        let more = entries + [removal(300, at: morning + 120)]
        #expect(DailyTotal.sum(more) == 0)
    }

    @Test("H3 seed 000 #3: a removal larger than the total is refused, naming the most that can be removed")
    func removalCannotMakeTheTotalNegative() throws {
        let total = DailyTotal.sum([intake(500, at: morning), removal(200, at: morning + 60)])
        let error = try #require(throws: TallyError.self) {
            try DailyTotal.checkRemoval(400, from: total, unit: .ml)
        }
        #expect(error.kind == .conflict)
        #expect(error.message.contains("at most 300 ml"))
        #expect(error.message.contains("400 ml"))
    }

    @Test("H3: removing exactly the total, or less, is allowed", arguments: [0.0, 1, 299.5, 300])
    func removalUpToTheTotal(_ amount: Double) throws {
        try DailyTotal.checkRemoval(amount, from: 300, unit: .ml)
    }

    @Test("H3: nothing can be removed from an empty day")
    func removalFromEmptyDay() throws {
        let error = try #require(throws: TallyError.self) { try DailyTotal.checkRemoval(100, from: 0, unit: .ml) }
        #expect(error.message.contains("at most 0 ml"))
    }

    @Test("H3: the limit rounds down, so it is always true (249.6 ml left → at most 249 ml)")
    func limitRoundsDown() throws {
        let error = try #require(throws: TallyError.self) { try DailyTotal.checkRemoval(300, from: 249.6, unit: .ml) }
        #expect(error.message.contains("at most 249 ml"))
        // And the limit it names is indeed accepted.
        try DailyTotal.checkRemoval(249, from: 249.6, unit: .ml)
    }

    @Test("H3, H5: in oz the limit is named in oz")
    func limitInOunces() throws {
        let total = DailyTotal.sum([intake(VolumeUnit.oz.toMilliliters(8), at: morning)])
        let error = try #require(throws: TallyError.self) {
            try DailyTotal.checkRemoval(VolumeUnit.oz.toMilliliters(10), from: total, unit: .oz)
        }
        #expect(error.message.contains("at most 8 oz"))
        #expect(error.message.contains("10 oz"))
    }

    @Test("H3, H5: removing everything logged in oz is allowed despite float dust")
    func removingEverythingInOunces() throws {
        let entries = (0..<64).map { intake(VolumeUnit.oz.toMilliliters(1), at: morning + Double($0) * 60) }
        let total = DailyTotal.sum(entries)
        #expect(total < VolumeUnit.oz.toMilliliters(64), "the sum carries float dust below the exact amount")
        try DailyTotal.checkRemoval(VolumeUnit.oz.toMilliliters(64), from: total, unit: .oz)
        // More than the dust is still refused.
        #expect(throws: TallyError.self) {
            try DailyTotal.checkRemoval(VolumeUnit.oz.toMilliliters(64) + 0.01, from: total, unit: .oz)
        }
    }

    @Test("H3: deleting or shrinking a drink may not take a day with removals below zero")
    func drinkChangeKeepsTotalNonNegative() throws {
        // 250 drunk, 150 removed: 100 left; deleting the 250 ml drink would leave -150.
        let total = DailyTotal.sum([intake(250, at: morning), removal(150, at: morning + 60)])
        let error = try #require(throws: TallyError.self) {
            try DailyTotal.checkDrinkChange(losing: 250, from: total, unit: .ml)
        }
        #expect(error.kind == .conflict)
        #expect(error.message.contains("100 ml"))
        try DailyTotal.checkDrinkChange(losing: 100, from: total, unit: .ml)
        try DailyTotal.checkDrinkChange(losing: 250, from: 250, unit: .ml)
    }

    // MARK: Date-based retrieval (seed 000 #4)

    /// Entries logged over three Berlin days, including the last and first minutes of a day.
    static let loggedInstants = [
        "2025-06-09T21:59:00Z", // 23:59 on the 9th
        "2025-06-09T22:00:00Z", // 00:00 on the 10th
        "2025-06-10T10:00:00Z", // 12:00 on the 10th
        "2025-06-10T21:59:59Z", // 23:59:59 on the 10th
        "2025-06-10T22:00:00Z", // 00:00 on the 11th
        "2025-06-11T12:00:00Z", // 14:00 on the 11th
    ]

    @Test("H2 seed 000 #4: a day's entries are found by the local day, and by the day's interval")
    func dateBasedRetrieval() {
        let zone = Zones.berlin
        let entries = Self.loggedInstants.map { intake(100, at: utc($0), in: zone) }
        let target = day("2025-06-10")
        let byDay = entries.filter { $0.day == target }
        let interval = target.interval(in: zone)
        let byInterval = entries.filter { interval.start <= $0.at && $0.at < interval.end }
        #expect(byDay.map(\.at) == [utc("2025-06-09T22:00:00Z"), utc("2025-06-10T10:00:00Z"), utc("2025-06-10T21:59:59Z")])
        #expect(byInterval.map(\.id) == byDay.map(\.id))
        #expect(DailyTotal.sum(byDay) == 300)
        #expect(entries.filter { $0.day == day("2025-06-09") }.count == 1)
        #expect(entries.filter { $0.day == day("2025-06-11") }.count == 2)
        #expect(entries.filter { $0.day == day("2025-06-12") }.isEmpty)
    }

    @Test("H2: the same instants fall on other days in another zone")
    func retrievalDependsOnTheZone() {
        let entries = Self.loggedInstants.map { intake(100, at: utc($0), in: Zones.newYork) }
        // In New York (UTC-4): two on the 9th (17:59, 18:00), three on the 10th, one on the 11th.
        #expect(entries.filter { $0.day == day("2025-06-10") }.count == 3)
        #expect(entries.filter { $0.day == day("2025-06-09") }.count == 2)
    }

    @Test("H2 testGetTodayIntakeMidnightBoundary: a drink at 23:59 belongs to its day even viewed after midnight")
    func testGetTodayIntakeMidnightBoundary() {
        let zone = Zones.berlin
        let clock = FixedClock(wall(2025, 6, 10, 23, 59, in: zone))
        let lateDrink = intake(250, at: clock.now, in: zone)
        #expect(lateDrink.day == day("2025-06-10"))

        clock.advance(by: 2 * 60) // 00:01 on the 11th: a new day, with no action
        let today = LocalDate(containing: clock.now, in: zone)
        #expect(today == day("2025-06-11"))
        let earlyDrink = intake(100, at: clock.now, in: zone)
        let all = [lateDrink, earlyDrink]

        let todays = DaySummary(date: today, entries: all.filter { $0.day == today }, goal: .default, unit: .ml)
        #expect(todays.totalMl == 100)
        #expect(todays.entries.map(\.id) == [earlyDrink.id])

        let yesterday = today.adding(days: -1)
        let yesterdays = DaySummary(date: yesterday, entries: all.filter { $0.day == yesterday }, goal: .default, unit: .ml)
        #expect(yesterdays.totalMl == 250)
        #expect(yesterdays.entries.map(\.id) == [lateDrink.id])
    }

    @Test("H2: a drink keeps its day when looked at from another zone later")
    func dayFixedAtLogging() {
        let lateDrink = intake(250, at: wall(2025, 6, 10, 23, 59, in: Zones.berlin), in: Zones.berlin)
        // Seen from Tokyo the instant is on the 11th, but the entry's day is the one it was drunk on.
        #expect(LocalDate(containing: lateDrink.at, in: Zones.tokyo) == day("2025-06-11"))
        #expect(lateDrink.day == day("2025-06-10"))
    }

    @Test("H2: a 25-hour day collects the drinks of all its 25 hours")
    func longDayCollectsAllItsHours() {
        let zone = Zones.berlin
        let date = day("2025-10-26")
        let interval = date.interval(in: zone)
        let hourly = (0..<30).map { intake(100, at: interval.start.addingTimeInterval(Double($0) * 3600 + 1), in: zone) }
        #expect(hourly.filter { $0.day == date }.count == 25)
        let short = day("2025-03-30").interval(in: zone)
        let hourlyShort = (0..<30).map { intake(100, at: short.start.addingTimeInterval(Double($0) * 3600 + 1), in: zone) }
        #expect(hourlyShort.filter { $0.day == day("2025-03-30") }.count == 23)
    }
}
