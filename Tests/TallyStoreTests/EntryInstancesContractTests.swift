import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// Several `tally serve` instances on one database: drinks of one person logged through
/// different instances at the same moment (PostgreSQL logs them side by side, without a lock).
@Suite("Drinks logged through several instances at once (H1)")
struct EntryInstancesContractTests {
    @Test("H1: drinks sent to two instances at once, each also sent again, are all stored once and the day's total is exact",
          arguments: [StoreKind.sqliteFile, .postgres])
    func concurrentDrinks(_ kind: StoreKind) async throws {
        let (first, second) = try await LedgerInstancesContractTests.twoInstances(kind)
        let clock = FixedClock(instant("2025-06-15T10:00:00Z"))
        let ada = try await UserDirectory(store: first, clock: clock).user(named: "ada", timeZone: "Europe/Berlin")
        let services = [HydrationService(store: first, clock: clock, user: ada.id), HydrationService(store: second, clock: clock, user: ada.id)]
        let drinks = (0..<60).map { index in (id: UUID(), ml: Double(100 + index)) }

        let results = try await withThrowingTaskGroup(of: EntryResult.self) { group in
            for (index, drink) in drinks.enumerated() {
                // Each drink through one instance, and again through the other, as a retry would.
                for service in [services[index % 2], services[(index + 1) % 2]] {
                    group.addTask { try await service.logDrinkResult(.init(volumeMl: drink.ml, id: drink.id)) }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.filter(\.created).count == drinks.count)
        let expected = drinks.reduce(0) { $0 + $1.ml }
        for service in services {
            let day = try await service.daySummary()
            #expect(day.entries.count == drinks.count)
            #expect(day.totalMl == expected)
            #expect(Set(day.entries.map(\.id)) == Set(drinks.map(\.id)))
        }
        // Each answer's progress counts its own drink at least, and never more than all of them.
        #expect(results.allSatisfy { $0.day.totalMl >= $0.entry.contributionMl && $0.day.totalMl <= expected })
    }
}
