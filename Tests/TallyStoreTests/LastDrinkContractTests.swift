import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// H11's smart reminders wait after the latest drink: found from the last days, not from years.
@Suite("The latest drink (H11)")
struct LastDrinkContractTests {
    @Test("H11: the latest drink is the latest instant, even when a move west gave it an earlier day", arguments: StoreKind.allCases)
    func latestInstant(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.store.lastDrink(of: f.user.id) == nil)
        let water = try #require(try await f.hydration.drinkKinds().first)
        func drink(_ at: String, _ day: String) -> Intake {
            Intake(id: UUID(), at: instant(at), day: LocalDate(day)!, volumeMl: 250, kind: water, note: nil, source: .manual)
        }
        // A year of drinks before; then 00:30 in Berlin on the 2nd (23:30 UTC on the 1st), and
        // after a flight to New York, 19:45 there on the 1st: later, on an earlier day.
        let old = (0..<365).map { drink("2024-06-01T08:00:00Z", LocalDate("2024-06-01")!.adding(days: $0).description) }
        _ = try await f.store.addIntakes(old + [drink("2025-06-01T22:30:00Z", "2025-06-02"), drink("2025-06-01T23:45:00Z", "2025-06-01")],
                                         of: f.user.id)
        #expect(try await f.store.lastDrink(of: f.user.id) == instant("2025-06-01T23:45:00Z"))
    }
}
