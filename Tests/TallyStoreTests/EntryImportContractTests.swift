import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// A2 through the store: a file's drinks, removals and new kinds stored together or not at all,
/// and a person's entries read back a range of days at a time.
@Suite("Entry imports in the store (A2)")
struct EntryImportContractTests {
    func intake(_ at: String, ml: Double, kind: DrinkKind, id: UUID = UUID()) -> DayEntry {
        .intake(Intake(id: id, at: instant(at), day: LocalDate(containing: instant(at), in: berlin), volumeMl: ml,
                       kind: kind, note: "from a file", source: .import))
    }

    func removal(_ at: String, ml: Double, id: UUID = UUID()) -> DayEntry {
        .removal(Removal(id: id, at: instant(at), day: LocalDate(containing: instant(at), in: berlin), volumeMl: ml))
    }

    /// Imports `entries` with `newKinds`, refusing any day whose total goes below zero.
    func importing(_ f: Fixture, _ entries: [DayEntry], newKinds: [DrinkKind] = []) async throws -> EntryImport.Added {
        try await f.store.importEntries(of: f.user.id, { _, _ in EntryImport(newKinds: newKinds, entries: entries) },
                                        check: { day, total, settings in try DailyTotal.checkImported(total, on: day, unit: settings.unit) })
    }

    @Test("A2: a file's drinks, removals and new kinds are stored once; the same file again adds nothing", arguments: StoreKind.allCases)
    func once(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let smoothie = DrinkKind(name: "smoothie", factor: 0.7)
        let entries = [
            intake("2025-06-14T08:00:00Z", ml: 250, kind: smoothie),
            removal("2025-06-14T09:00:00Z", ml: 50),
            intake("2025-06-15T07:30:00Z", ml: 187.5, kind: smoothie),
        ]
        let first = try await importing(f, entries, newKinds: [smoothie])
        #expect(first == EntryImport.Added(drinks: 2, removals: 1, newKinds: ["smoothie"]))
        let again = try await importing(f, entries)
        #expect(again == EntryImport.Added(drinks: 0, removals: 0, newKinds: []))
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil) == [day("2025-06-14"): 125, day("2025-06-15"): 131.25])
        #expect(try await f.hydration.drinkKinds().contains { $0.id == smoothie.id && $0.factor == 0.7 })
        #expect(try await f.store.entries(from: day("2025-06-14"), through: day("2025-06-15"), of: f.user.id).map(\.id) == entries.map(\.id))
    }

    @Test("A2: a day taken below zero refuses the whole file: no entry and no new kind is kept", arguments: StoreKind.allCases)
    func allOrNothing(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let smoothie = DrinkKind(name: "smoothie", factor: 0.7)
        let entries = [intake("2025-06-14T08:00:00Z", ml: 250, kind: smoothie), intake("2025-06-15T08:00:00Z", ml: 100, kind: smoothie),
                       removal("2025-06-15T09:00:00Z", ml: 80)]
        let error = await #expect(throws: TallyError.self) { try await importing(f, entries, newKinds: [smoothie]) }
        #expect(error?.message == "The removals on 2025-06-15 take 10 ml more than the day's drinks; a day's total never goes below zero.")
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil).isEmpty)
        #expect(try await !f.hydration.drinkKinds().contains { $0.name == "smoothie" })
    }

    @Test("A2: an id that is another person's entry is a conflict, and nothing of the file is kept", arguments: StoreKind.allCases)
    func othersID(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let other = try await f.otherUser()
        let theirs = try await other.logDrink(.init(volumeMl: 100)).intake
        let water = try await f.hydration.drinkKinds().first { $0.name == "water" }!
        let entries = [intake("2025-06-14T08:00:00Z", ml: 250, kind: water), removal("2025-06-14T09:00:00Z", ml: 10, id: theirs.id)]
        let error = await #expect(throws: TallyError.self) { try await importing(f, entries) }
        #expect(error?.kind == .conflict)
        #expect(try await f.store.dailyTotals(of: f.user.id, from: nil, through: nil).isEmpty)
        #expect(try await other.store.entry(id: theirs.id, of: other.user) == .intake(theirs))
    }

    @Test("A2: a range of days gives that person's entries of those days, day by day in the order they happened",
          arguments: StoreKind.allCases)
    func range(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let other = try await f.otherUser()
        _ = try await other.logDrink(.init(volumeMl: 100, at: instant("2025-06-14T10:00:00Z")))
        let water = try await f.hydration.drinkKinds().first { $0.name == "water" }!
        let late = intake("2025-06-14T21:59:00Z", ml: 300, kind: water) // 23:59 in Berlin: still the 14th
        let early = intake("2025-06-14T06:00:00Z", ml: 200, kind: water)
        let sameTime = removal("2025-06-14T06:00:00Z", ml: 50)
        let before = intake("2025-06-13T12:00:00Z", ml: 100, kind: water)
        let after = intake("2025-06-16T12:00:00Z", ml: 100, kind: water)
        _ = try await importing(f, [late, sameTime, after, early, before])
        #expect(try await f.store.entries(from: day("2025-06-14"), through: day("2025-06-15"), of: f.user.id).map(\.id)
                == [early.id, sameTime.id, late.id])
        #expect(try await f.store.entries(from: day("2025-06-13"), through: day("2025-06-16"), of: f.user.id).map(\.id)
                == [before.id, early.id, sameTime.id, late.id, after.id])
        #expect(try await f.store.entries(from: day("2025-06-17"), through: day("2025-06-30"), of: f.user.id).isEmpty)
    }
}
