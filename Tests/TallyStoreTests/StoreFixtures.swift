import Foundation
import TallyCore
@testable import TallyStore

/// The stores the contract suite runs against. A PostgreSQL store joins this list.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqliteInMemory = "SQLite in memory"
    case sqliteFile = "SQLite file"
    case sqliteFileOneConnection = "SQLite file, one connection"

    var description: String { rawValue }

    func makeStore() throws -> any TallyStorage {
        switch self {
        case .sqliteInMemory:
            return try SQLiteStore.inMemory()
        case .sqliteFile:
            return try SQLiteStore.open(path: temporaryDatabasePath())
        case .sqliteFileOneConnection:
            return try SQLiteStore.open(path: temporaryDatabasePath(), access: .singleConnection)
        }
    }
}

func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("tally-tests-\(UUID().uuidString)")
        .appendingPathComponent("tally.sqlite").path
}

/// An instant from an ISO 8601 text, for readable tests.
func instant(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
}

func day(_ text: String) -> LocalDate { LocalDate(text)! }

let berlin = TimeZone(identifier: "Europe/Berlin")!

/// A store with one user in Berlin, and a clock the test moves.
struct Fixture {
    let store: any TallyStorage
    let clock: FixedClock
    let user: User
    let hydration: HydrationService

    init(_ kind: StoreKind, now: String = "2025-06-15T10:00:00Z", zone: String = "Europe/Berlin", name: String = "ada") async throws {
        store = try kind.makeStore()
        clock = FixedClock(instant(now))
        let directory = UserDirectory(store: store, clock: clock)
        user = try await directory.user(named: name, timeZone: zone)
        hydration = directory.hydration(for: user)
    }

    /// Another user of the same store.
    func otherUser(_ name: String = "bob") async throws -> HydrationService {
        let directory = UserDirectory(store: store, clock: clock)
        return directory.hydration(for: try await directory.user(named: name, timeZone: "Europe/Berlin"))
    }

    func kind(_ name: String) async throws -> DrinkKind {
        try await store.drinkKinds(of: user.id).first { $0.name == name }!
    }
}
