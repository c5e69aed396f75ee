import Foundation
@testable import TallyCore

// Helpers shared by the TallyCore tests. Zones are always named explicitly: no test reads the
// machine's time zone, so the results are the same on every machine.

enum Zones {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let utc = TimeZone(identifier: "UTC")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
}

/// A date literal for tests; traps on a typo in the test itself.
func day(_ text: String) -> LocalDate {
    guard let date = LocalDate(text) else { fatalError("bad date literal in a test: \(text)") }
    return date
}

func month(_ text: String) -> YearMonth {
    guard let value = YearMonth(text) else { fatalError("bad month literal in a test: \(text)") }
    return value
}

/// An instant written as UTC ISO 8601, e.g. "2025-03-29T23:00:00Z".
func utc(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad instant literal in a test: \(text)") }
    return date
}

/// The instant a wall clock in `zone` shows the given time (built with a calendar of the test's own,
/// not with the code under test).
func wall(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0,
          in zone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    guard let date = calendar.date(from: DateComponents(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)) else {
        fatalError("no such wall time in a test")
    }
    return date
}

func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

let water = DrinkKind(name: "water", factor: 1.0, isBuiltIn: true)
let coffee = DrinkKind(name: "coffee", factor: 0.85, isBuiltIn: true)

func intake(_ volumeMl: Double, _ kind: DrinkKind = water, at instant: Date, in zone: TimeZone = Zones.berlin,
            source: IntakeSource = .manual) -> DayEntry {
    .intake(Intake(id: UUID(), at: instant, day: LocalDate(containing: instant, in: zone),
                   volumeMl: volumeMl, kind: kind, note: nil, source: source))
}

func removal(_ volumeMl: Double, at instant: Date, in zone: TimeZone = Zones.berlin) -> DayEntry {
    .removal(Removal(id: UUID(), at: instant, day: LocalDate(containing: instant, in: zone), volumeMl: volumeMl))
}

extension DayEntry {
    var day: LocalDate {
        switch self {
        case .intake(let intake): intake.day
        case .removal(let removal): removal.day
        }
    }
}

/// A goal of `ml` the person typed.
func customGoal(_ ml: Double) -> Goal { Goal(.custom(ml: ml), profile: nil) }
