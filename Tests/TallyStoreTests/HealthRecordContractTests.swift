import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// A2 through the store: imported drinks and asleep intervals, stored together or not at all.
@Suite("Health records in the store (A2)")
struct HealthRecordContractTests {
    func night(_ start: String, _ end: String) -> DateInterval { DateInterval(start: instant(start), end: instant(end)) }

    func drink(_ f: Fixture, _ at: String, ml: Double, id: UUID = UUID()) async throws -> Intake {
        let water = try await f.hydration.drinkKinds().first { $0.name == "water" }!
        return Intake(id: id, at: instant(at), day: LocalDate(containing: instant(at), in: berlin), volumeMl: ml,
                      kind: water, note: nil, source: .import)
    }

    @Test("A2: drinks and intervals are stored once: the same ones again add nothing", arguments: StoreKind.allCases)
    func once(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let drinks = [try await drink(f, "2025-06-14T08:00:00Z", ml: 250), try await drink(f, "2025-06-14T12:00:00Z", ml: 187.5)]
        let nights = [night("2025-06-12T21:30:00Z", "2025-06-13T05:00:00Z"), night("2025-06-13T21:45:00Z", "2025-06-14T04:50:00Z")]
        let first = try await f.store.importHealthRecords(drinks: drinks, asleep: nights, of: f.user.id, at: f.clock.now)
        #expect(first.drinks == 2 && first.asleep == 2)
        let again = try await f.store.importHealthRecords(drinks: drinks, asleep: nights + [nights[0]], of: f.user.id, at: f.clock.now)
        #expect(again.drinks == 0 && again.asleep == 0)
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil) == [day("2025-06-14"): 437.5])
        #expect(try await f.store.asleepIntervals(of: f.user.id, endingAfter: .distantPast) == nights)
        #expect(try await f.store.asleepIntervals(of: f.user.id, endingAfter: instant("2025-06-13T05:00:00Z")) == [nights[1]])
    }

    @Test("A2: one refused drink leaves the drinks and the intervals as they were", arguments: StoreKind.allCases)
    func allOrNothing(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let other = try await f.otherUser()
        let theirs = try await other.logDrink(.init(volumeMl: 100)).intake
        // An id that is another person's drink: a conflict, after a good drink and with a night.
        let drinks = [try await drink(f, "2025-06-14T08:00:00Z", ml: 250), try await drink(f, "2025-06-14T09:00:00Z", ml: 100, id: theirs.id)]
        await #expect(throws: TallyError.self) {
            try await f.store.importHealthRecords(drinks: drinks, asleep: [night("2025-06-13T21:30:00Z", "2025-06-14T05:00:00Z")], of: f.user.id, at: f.clock.now)
        }
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil).isEmpty)
        #expect(try await f.store.asleepIntervals(of: f.user.id, endingAfter: .distantPast).isEmpty)
    }

    @Test("A2: one person's sleep records are not another's", arguments: StoreKind.allCases)
    func isolation(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let other = try await f.otherUser()
        _ = try await f.store.importHealthRecords(drinks: [], asleep: [night("2025-06-13T21:30:00Z", "2025-06-14T05:00:00Z")], of: f.user.id, at: f.clock.now)
        #expect(try await f.store.asleepIntervals(of: other.user, endingAfter: .distantPast).isEmpty)
        #expect(try await f.store.importHealthRecords(drinks: [], asleep: [night("2025-06-13T21:30:00Z", "2025-06-14T05:00:00Z")],
                                                      of: other.user, at: f.clock.now).asleep == 1)
    }

    @Test("A2: a deleted imported drink stays deleted until it is forgotten; then it comes back once, and a drink still there never twice",
          arguments: StoreKind.allCases)
    func forgetDeleted(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let other = try await f.otherUser()
        let kept = try await drink(f, "2025-06-14T08:00:00Z", ml: 250)
        let deleted = try await drink(f, "2025-06-14T12:00:00Z", ml: 300)
        func importAgain() async throws -> Int {
            try await f.store.importHealthRecords(drinks: [kept, deleted], asleep: [], of: f.user.id, at: f.clock.now).drinks
        }
        func total() async throws -> Double? {
            try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil)[day("2025-06-14")]
        }
        #expect(try await importAgain() == 2)
        _ = try await f.hydration.deleteEntry(id: deleted.id)
        #expect(try await importAgain() == 0, "deleted, it stays deleted")
        #expect(try await total() == 250)

        // Another person forgets nothing of hers.
        #expect(try await other.forgetDeletedImports().forgotten == 0)
        #expect(try await importAgain() == 0)

        #expect(try await f.store.forgetDeletedImports(of: f.user.id) == 1)
        #expect(try await f.store.forgetDeletedImports(of: f.user.id) == 0, "forgotten once")
        #expect(try await importAgain() == 1, "back, and only the deleted one")
        #expect(try await total() == 550)
        #expect(try await importAgain() == 0, "remembered again once it is back")

        // With every imported drink still there, forgetting forgets nothing and importing adds nothing.
        #expect(try await f.hydration.forgetDeletedImports().forgotten == 0)
        #expect(try await importAgain() == 0)
        #expect(try await total() == 550)
    }
}
