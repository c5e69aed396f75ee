import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// H10 through the store: a sip lowers the level and logs a drink in one transaction.
@Suite("Bottle in the store (H10)")
struct BottleContractTests {
    @Test("H10: a sip logs water from the bottle on today's total and lowers the level", arguments: StoreKind.allCases)
    func sip(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.hydration.bottle() == .standard)
        let result = try await f.hydration.sip()
        #expect(result.created && result.bottle.levelMl == 970)
        guard case .intake(let intake) = result.sip else { Issue.record("no drink logged"); return }
        #expect(intake.volumeMl == 30 && intake.source == .bottle && intake.kindName == "water")
        #expect(result.day?.totalMl == 30)
        #expect(try await f.hydration.daySummary().totalMl == 30)
        #expect(try await f.hydration.bottle().levelMl == 970)
    }

    @Test("H10: the same sip sent twice is one sip", arguments: StoreKind.allCases)
    func idempotent(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let id = UUID()
        let first = try await f.hydration.sip(id: id)
        let again = try await f.hydration.sip(id: id)
        #expect(first.created && !again.created && again.sip == first.sip)
        #expect(try await f.hydration.bottle().levelMl == 970)
        #expect(try await f.hydration.daySummary().entries.count == 1)
    }

    @Test("H10: an empty bottle refuses a sip and nothing is logged; setting the level logs nothing", arguments: StoreKind.allCases)
    func empty(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.hydration.adjustBottle(levelMl: 20).levelMl == 20)
        #expect(try await f.hydration.sip().sip.map { if case .intake(let i) = $0 { i.volumeMl } else { 0 } } == 20)
        await #expect(throws: TallyError.conflict("The bottle is empty: refill it (or set its level) before the next sip.")) {
            try await f.hydration.sip()
        }
        #expect(try await f.hydration.daySummary().totalMl == 20)
        #expect(try await f.hydration.fillBottle().levelMl == 1000)
        #expect(try await f.hydration.daySummary().totalMl == 20)
    }

    @Test("H10: capacity, level and sip size change together or not at all", arguments: StoreKind.allCases)
    func adjust(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let changed = try await f.hydration.adjustBottle(capacityMl: 750, levelMl: 500, sipMl: 50)
        #expect(changed == Bottle(capacityMl: 750, levelMl: 500, sipMl: 50))
        await #expect(throws: TallyError.self) { try await f.hydration.adjustBottle(capacityMl: 2000, levelMl: 3000) }
        await #expect(throws: TallyError.self) { try await f.hydration.adjustBottle(capacityMl: 0) }
        await #expect(throws: TallyError.self) { try await f.hydration.adjustBottle() }
        #expect(try await f.hydration.bottle() == changed)
    }
}
