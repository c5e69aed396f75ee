// Fills a Tally database with years of realistic hydration data, for the benchmarks in bench/.
//
//   tally-bench-fill DATABASE [YEARS] [END-DATE]
//
// The user "local" in Europe/Berlin gets about 8 drinks a day between 07:00 and 22:30 of mixed
// kinds, a removal every few days, and a profile that changes each new year (so the automatic goal does too), for YEARS
// years (default 10) up to END-DATE (default 2026-11-20). Random but seeded: every run writes
// the same data.
import Foundation
import TallyCore
import TallyRepositories
import TallyServices
import TallyStore

struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        // SplitMix64: small, fast and good enough for test data.
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    FileHandle.standardError.write(Data("usage: tally-bench-fill DATABASE [YEARS] [END-DATE]\n".utf8))
    exit(64)
}
let years = arguments.dropFirst().first.flatMap(Int.init) ?? 10
let end = arguments.dropFirst(2).first.flatMap(LocalDate.init) ?? LocalDate("2026-11-20")!
let start = end.adding(days: -365 * years)
let zone = TimeZone(identifier: "Europe/Berlin")!

let store = try SQLiteStore.open(path: path)
let clock = FixedClock(start.start(in: zone).addingTimeInterval(8 * 3600))
let directory = UserDirectory(store: store, clock: clock)
let user = try await directory.user(named: "local", timeZone: zone.identifier)
let hydration = directory.hydration(for: user)
let kinds = try await hydration.drinkKinds()
let weights: [(String, Int)] = [("water", 60), ("coffee", 15), ("tea", 12), ("juice", 5), ("milk", 4), ("soda", 3), ("other", 1)]
var random = SeededGenerator(state: 2026)

func kind(_ random: inout SeededGenerator) -> DrinkKind {
    var pick = Int.random(in: 0..<100, using: &random)
    for (name, weight) in weights {
        if pick < weight { return kinds.first { $0.name == name }! }
        pick -= weight
    }
    return kinds[0]
}

let began = Date()
var drinks = 0
var removals = 0
var batch: [Intake] = []
var date = start
while date <= end {
    if (date.day == 1 && date.month == 1) || date == start {
        // A profile change now and then moves the automatic goal (H8).
        clock.set(date.start(in: zone).addingTimeInterval(7 * 3600))
        // 30 to 89, again and again: a fill of centuries keeps a profile Tally takes (10 to 120).
        _ = try await hydration.setProfile(try Profile(age: 30 + (date.year - start.year) % 60, weightKg: Double(60 + date.month), activity: .moderate))
    }
    let count = Int.random(in: 5...11, using: &random)
    let dayStart = date.start(in: zone)
    for _ in 0..<count {
        let minute = Double(Int.random(in: 7 * 60...(22 * 60 + 30), using: &random))
        let volume = [150.0, 200, 250, 300, 330, 500].randomElement(using: &random)!
        batch.append(Intake(id: UUID(), at: dayStart.addingTimeInterval(minute * 60), day: date,
                            volumeMl: volume, kind: kind(&random), note: nil, source: .manual))
    }
    drinks += count
    if batch.count >= 5000 {
        _ = try await store.addIntakes(batch, of: user.id)
        batch.removeAll(keepingCapacity: true)
    }
    if Int.random(in: 0..<5, using: &random) == 0 {
        _ = try await store.addIntakes(batch, of: user.id)
        batch.removeAll(keepingCapacity: true)
        clock.set(dayStart.addingTimeInterval(23 * 3600))
        try await hydration.remove(volumeMl: 100, at: dayStart.addingTimeInterval(22 * 3600 + 45 * 60))
        removals += 1
    }
    date = date.adding(days: 1)
}
_ = try await store.addIntakes(batch, of: user.id)
print("filled \(path): \(drinks) drinks and \(removals) removals over \(start.days(to: end) + 1) days (\(start) to \(end)) in \(String(format: "%.1f", Date().timeIntervalSince(began))) s")
