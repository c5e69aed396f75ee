import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// The repository contract for drinks and removals, run against every store (H1–H3).
@Suite("Entry repository contract")
struct EntryContractTests {
    @Test("H1: a drink is stored with its effective hydration and read back", arguments: StoreKind.allCases)
    func storesDrink(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let coffee = try await f.kind("coffee")
        let intake = Intake(id: UUID(), at: instant("2025-06-15T08:00:00Z"), day: day("2025-06-15"),
                            volumeMl: 200, kind: coffee, note: "espresso", source: .manual)
        let (stored, created) = try await f.store.addIntake(intake, of: f.user.id)
        #expect(created)
        #expect(stored == intake)
        #expect(stored.effectiveMl == 170)
        #expect(try await f.store.entry(id: intake.id, of: f.user.id) == .intake(intake))
    }

    @Test("H1: a repeated id returns the stored drink and adds nothing", arguments: StoreKind.allCases)
    func idempotentIntake(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let id = UUID()
        let first = try await f.hydration.logDrink(.init(volumeMl: 250, id: id))
        let again = try await f.hydration.logDrink(.init(volumeMl: 999, id: id))
        #expect(first.created && !again.created)
        #expect(again.intake == first.intake)
        #expect(try await f.hydration.daySummary().entries.count == 1)
        #expect(try await f.hydration.daySummary().totalMl == 250)
    }

    @Test("H1: logging a drink gives it with its day's progress from the same transaction", arguments: StoreKind.allCases)
    func logDrinkResult(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 300))
        let id = UUID()
        let result = try await f.hydration.logDrinkResult(.init(volumeMl: 200, kindName: "COFFEE", id: id))
        #expect(result.created)
        #expect(result.entry == (try await f.store.entry(id: id, of: f.user.id)))
        #expect(result.day == (try await f.hydration.dayProgress(on: result.entry.day)))
        #expect(result.day.totalMl == 470)
        let again = try await f.hydration.logDrinkResult(.init(volumeMl: 999, id: id))
        #expect(!again.created && again.entry == result.entry && again.day == result.day)
        // What `make` refuses is refused before anything is written.
        await #expect(throws: TallyError.self) { try await f.hydration.logDrinkResult(.init(volumeMl: 100, kindName: "lemonade")) }
        await #expect(throws: TallyError.self) { try await f.hydration.logDrinkResult(.init(volumeMl: -1)) }
        #expect(try await f.hydration.daySummary().entries.count == 2)
    }

    @Test("A1: an id another user's entry has is refused and their entry is untouched", arguments: StoreKind.allCases)
    func idOfAnotherUser(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let id = UUID()
        try await bob.logDrink(.init(volumeMl: 300, id: id))
        await #expect(throws: TallyError.self) { try await f.hydration.logDrink(.init(volumeMl: 250, id: id)) }
        await #expect(throws: TallyError.self) { try await f.hydration.remove(volumeMl: 10, id: id) }
        #expect(try await f.hydration.daySummary().entries.isEmpty)
        #expect(try await bob.daySummary().totalMl == 300)
    }

    @Test("A1: another user's entries can be neither seen, edited nor deleted", arguments: StoreKind.allCases)
    func isolation(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        let (theirs, _) = try await bob.logDrink(.init(volumeMl: 300))
        #expect(try await f.store.entry(id: theirs.id, of: f.user.id) == nil)
        await #expect(throws: TallyError.notFound("There is no entry with the id \(theirs.id).")) {
            try await f.hydration.deleteEntry(id: theirs.id)
        }
        await #expect(throws: TallyError.self) { try await f.hydration.editDrink(id: theirs.id, .init(volumeMl: 1)) }
        #expect(try await f.store.entryIDs(startingWith: String(theirs.id.uuidString.prefix(8)), of: f.user.id, limit: 2).isEmpty)
        #expect(try await f.hydration.history().days.last?.totalMl == 0)
        #expect(try await bob.daySummary().totalMl == 300)
    }

    @Test("H3: a removal is checked against its day's total inside the transaction", arguments: StoreKind.allCases)
    func removalCheck(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 500))
        let seen = Locked<Double?>(nil)
        let removal = Removal(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 100)
        _ = try await f.store.addRemoval(removal, of: f.user.id) { total in seen.value = total }
        #expect(seen.value == 500)
        struct Refused: Error {}
        let refused = Removal(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 50)
        await #expect(throws: Refused.self) {
            _ = try await f.store.addRemoval(refused, of: f.user.id) { _ in throw Refused() }
        }
        #expect(try await f.store.entry(id: refused.id, of: f.user.id) == nil)
        #expect(try await f.hydration.daySummary().totalMl == 400)
    }

    @Test("H3: removing more than the day's total is refused, naming the most that can go", arguments: StoreKind.allCases)
    func removalTooLarge(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 300))
        try await f.hydration.remove(volumeMl: 50)
        await #expect(throws: TallyError.conflict(
            "Cannot remove 300 ml: the day's total is 250 ml, so at most 250 ml can be removed.")) {
            try await f.hydration.remove(volumeMl: 300)
        }
        try await f.hydration.remove(volumeMl: 250)
        #expect(try await f.hydration.daySummary().totalMl == 0)
    }

    @Test("H3: a drink that removals depend on cannot be deleted or shrunk", arguments: StoreKind.allCases)
    func deleteKeepsDayAboveZero(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let (big, _) = try await f.hydration.logDrink(.init(volumeMl: 500))
        let (removal, _) = try await f.hydration.remove(volumeMl: 400)
        await #expect(throws: TallyError.self) { try await f.hydration.deleteEntry(id: big.id) }
        await #expect(throws: TallyError.self) { try await f.hydration.editDrink(id: big.id, .init(volumeMl: 300)) }
        #expect(try await f.hydration.daySummary().totalMl == 100)
        try await f.hydration.deleteEntry(id: removal.id)
        try await f.hydration.deleteEntry(id: big.id)
        #expect(try await f.hydration.daySummary().entries.isEmpty)
    }

    @Test("H1: editing a drink keeps its logged factor unless its kind changes", arguments: StoreKind.allCases)
    func editDrink(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let (coffee, _) = try await f.hydration.logDrink(.init(volumeMl: 200, kindName: "coffee"))
        try await f.hydration.setFactor(of: "coffee", to: 0.5)
        let bigger = try await f.hydration.editDrink(id: coffee.id, .init(volumeMl: 400))
        #expect(bigger.effectiveMl == 340)
        let asTea = try await f.hydration.editDrink(id: coffee.id, .init(kind: "tea", note: .set("green")))
        #expect(asTea.kindName == "tea" && asTea.effectiveMl == 380 && asTea.note == "green")
        let moved = try await f.hydration.editDrink(id: coffee.id, .init(at: instant("2025-06-14T20:00:00Z")))
        #expect(moved.day == day("2025-06-14"))
        #expect(try await f.hydration.daySummary(on: day("2025-06-14")).totalMl == 380)
        #expect(try await f.hydration.daySummary().totalMl == 0)
    }

    @Test("H2: a day's entries come back oldest first, removals included", arguments: StoreKind.allCases)
    func entriesOfADay(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 300, at: instant("2025-06-15T09:00:00Z")))
        try await f.hydration.logDrink(.init(volumeMl: 200, at: instant("2025-06-15T07:00:00Z")))
        try await f.hydration.remove(volumeMl: 100, at: instant("2025-06-15T08:00:00Z"))
        try await f.hydration.logDrink(.init(volumeMl: 999, at: instant("2025-06-14T21:59:00Z")))
        let entries = try await f.store.entries(on: day("2025-06-15"), of: f.user.id)
        #expect(entries.map(\.contributionMl) == [200, -100, 300])
    }

    @Test("H2: daily totals are summed by the database, per local day, within a range", arguments: StoreKind.allCases)
    func dailyTotals(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        // 23:30 Berlin on the 13th is 21:30 UTC: it belongs to the 13th.
        try await f.hydration.logDrink(.init(volumeMl: 100, at: instant("2025-06-13T21:30:00Z")))
        try await f.hydration.logDrink(.init(volumeMl: 200, at: instant("2025-06-13T22:30:00Z")))
        try await f.hydration.logDrink(.init(volumeMl: 400, kindName: "soda", at: instant("2025-06-14T12:00:00Z")))
        try await f.hydration.remove(volumeMl: 20, at: instant("2025-06-14T13:00:00Z"))
        let all = try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil)
        #expect(all == [day("2025-06-13"): 100, day("2025-06-14"): 200 + 320 - 20])
        let one = try await f.store.dailyTotals(of: f.user.id, from: day("2025-06-14"), through: day("2025-06-14"))
        #expect(one.keys.sorted() == [day("2025-06-14")])
    }

    @Test("An entry id can be given by its first characters", arguments: StoreKind.allCases)
    func idPrefix(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let (intake, _) = try await f.hydration.logDrink(.init(volumeMl: 250))
        let prefix = String(intake.id.uuidString.prefix(8)).lowercased()
        #expect(try await f.hydration.resolveEntryID(prefix) == intake.id)
        #expect(try await f.hydration.resolveEntryID(intake.id.uuidString) == intake.id)
        await #expect(throws: TallyError.self) { try await f.hydration.resolveEntryID("zz") }
        await #expect(throws: TallyError.self) { try await f.hydration.resolveEntryID("not-hex!") }
    }
}

/// A value a `@Sendable` closure can set.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite("Entry repository contract: batches")
struct BatchContractTests {
    @Test("Many drinks go in one transaction; ids already stored are skipped", arguments: StoreKind.allCases)
    func batch(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let water = try await f.kind("water")
        let drinks = (0..<50).map { i in
            Intake(id: UUID(), at: instant("2025-06-14T10:00:00Z").addingTimeInterval(Double(i) * 60),
                   day: day("2025-06-14"), volumeMl: 10, kind: water, note: nil, source: .import)
        }
        #expect(try await f.store.addIntakes(drinks, of: f.user.id) == 50)
        #expect(try await f.store.addIntakes(drinks, of: f.user.id) == 0)
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil) == [day("2025-06-14"): 500])
    }

    @Test("A batch with one bad drink stores none of it", arguments: StoreKind.allCases)
    func batchAllOrNothing(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let water = try await f.kind("water")
        let good = Intake(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 10, kind: water, note: nil, source: .import)
        let foreignKind = DrinkKind(name: "stranger", factor: 1)
        let bad = Intake(id: UUID(), at: f.clock.now, day: day("2025-06-15"), volumeMl: 10, kind: foreignKind, note: nil, source: .import)
        await #expect(throws: TallyError.self) { try await f.store.addIntakes([good, bad], of: f.user.id) }
        #expect(try await f.hydration.daySummary().entries.isEmpty)
    }
}

@Suite("Entry repository contract: day snapshots")
struct DaySnapshotContractTests {
    @Test("One read gives the settings, the day they pick, its entries and the goals", arguments: StoreKind.allCases)
    func snapshot(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.hydration.logDrink(.init(volumeMl: 300, at: instant("2025-06-14T21:30:00Z")))
        try await f.hydration.logDrink(.init(volumeMl: 200, at: instant("2025-06-15T08:00:00Z")))
        _ = try await f.hydration.setGoal(.custom(ml: 2000))
        let snapshot = try await f.store.daySnapshot(of: f.user.id) { settings in
            LocalDate(containing: instant("2025-06-14T22:30:00Z"), in: settings.zone) // 00:30 on the 15th in Berlin
        }
        #expect(snapshot.settings.timeZone == "Europe/Berlin")
        #expect(snapshot.day == day("2025-06-15"))
        #expect(snapshot.entries.map(\.contributionMl) == [200])
        #expect(snapshot.goals.goal(on: day("2025-06-15")).targetMl == 2000)
    }

    @Test("Entries of one instant come drinks first, then by id, in every store", arguments: StoreKind.allCases)
    func sameInstant(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let at = instant("2025-06-15T08:00:00Z")
        let ids = (0..<6).map { _ in UUID() }
        for (n, id) in ids.enumerated() {
            if n % 3 == 2 {
                _ = try await f.hydration.remove(volumeMl: 10, at: at, id: id)
            } else {
                try await f.hydration.logDrink(.init(volumeMl: 100, at: at, id: id))
            }
        }
        let drinks = ids.enumerated().filter { $0.offset % 3 != 2 }.map(\.element.uuidString).sorted()
        let removals = ids.enumerated().filter { $0.offset % 3 == 2 }.map(\.element.uuidString).sorted()
        let expected = drinks + removals
        #expect(try await f.store.entries(on: day("2025-06-15"), of: f.user.id).map(\.id.uuidString) == expected)
        #expect(try await f.store.daySnapshot(of: f.user.id) { _ in day("2025-06-15") }.entries.map(\.id.uuidString) == expected)
    }
}
