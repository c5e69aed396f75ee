import Foundation
import TallyCore
import TallyPostgres
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore

/// The stores the contract suite runs against.
enum StoreKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqliteInMemory = "SQLite in memory"
    case sqliteFile = "SQLite file"
    case sqliteFileOneConnection = "SQLite file, one connection"
    case postgres = "PostgreSQL"

    var description: String { rawValue }

    func makeStore() async throws -> any TallyStorage {
        switch self {
        case .sqliteInMemory:
            return try SQLiteStore.inMemory()
        case .sqliteFile:
            return try SQLiteStore.open(path: temporaryDatabasePath())
        case .sqliteFileOneConnection:
            return try SQLiteStore.open(path: temporaryDatabasePath(), access: .singleConnection)
        case .postgres:
            return try await PostgresStore.connect(url: try testPostgresURL(), schema: "test_\(UUID().uuidString.prefix(18).replacingOccurrences(of: "-", with: "").lowercased())",
                                                   maximumConnections: 4, idleTimeout: .seconds(2))
        }
    }
}

/// The PostgreSQL server that scripts/test starts for the tests; each store gets a schema of its own on it.
func testPostgresURL() throws -> String {
    guard let url = ProcessInfo.processInfo.environment["TALLY_TEST_POSTGRES_URL"], !url.isEmpty else {
        throw TallyError.invalid("""
            The PostgreSQL tests need a server: run scripts/test, which starts one when PostgreSQL 15 is installed \
            (apt-get install postgresql-15), or set TALLY_TEST_POSTGRES_URL to a database of yours.
            """)
    }
    return url
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
        store = try await kind.makeStore()
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
