import Foundation
import TallyAPI
import TallyCore
import TallyPostgres
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// Several `tally serve` instances on one database: changes to one ledger made through
/// different instances at the same moment follow one another, as if there were one.
@Suite("One ledger changed through several instances at once (S1, S3)")
struct LedgerInstancesContractTests {
    /// Two instances of one new store, as two servers that share its database.
    static func twoInstances(_ kind: StoreKind) async throws -> (any TallyStorage, any TallyStorage) {
        switch kind {
        case .postgres:
            let schema = "test_\(UUID().uuidString.prefix(18).replacingOccurrences(of: "-", with: "").lowercased())"
            func connect() async throws -> PostgresStore {
                try await PostgresStore.connect(url: try testPostgresURL(), schema: schema, maximumConnections: 4, idleTimeout: .seconds(2))
            }
            return (try await connect(), try await connect())
        case .sqliteFile:
            let path = temporaryDatabasePath()
            return (try SQLiteStore.open(path: path), try SQLiteStore.open(path: path))
        case .sqliteInMemory, .sqliteFileOneConnection:
            throw TallyError.invalid("\(kind) is one instance's own store.")
        }
    }

    @Test("S3: expenses and edits sent to two instances at once all count, and the kept totals stay exact",
          arguments: [StoreKind.sqliteFile, .postgres])
    func concurrentEntries(_ kind: StoreKind) async throws {
        // setup: one ledger of three, a service on each instance
        let (first, second) = try await Self.twoInstances(kind)
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let alex = try await UserDirectory(store: first, clock: clock).user(named: "alex", timeZone: "Europe/Berlin").id
        let services = [SpendingService(store: first, clock: clock, user: alex), SpendingService(store: second, clock: clock, user: alex)]
        let ledger = try await services[0].createLedger(name: "Home", currency: "EUR", memberNames: ["Alex", "Sam", "Kim"])
        let id = ledger.ledger.id

        // act: 40 expenses of uneven thirds, each instance half of them, all at once; then an
        // edit of each, again at once
        let added = try await withThrowingTaskGroup(of: SpendingEntry.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await services[index % 2].addExpense(to: id, .init(amount: .text("\(index + 1).00"), payer: ledger.members[index % 3].id)).entry
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, entry) in added.enumerated() {
                group.addTask {
                    let cent = Money(minorUnits: entry.amount.minorUnits + 1, currency: entry.amount.currency)
                    _ = try await services[index % 2].editEntry(entry.id, in: id, .init(amount: .text(cent.plain)))
                }
            }
            try await group.waitForAll()
        }

        // check: every change counted once, on both instances
        let paid = added.reduce(Int64(0)) { $0 + $1.amount.minorUnits + 1 }
        for service in services {
            let summary = try await service.summary(of: id)
            #expect(summary.balances.members.map(\.paid).reduce(0, +) == paid)
            #expect(summary.balances.total == 0)
        }
        let check = try await (second as! any LedgerTotalsCheck).checkTotals(of: id)
        #expect(check.kept == check.recomputed)
        #expect(try await services[1].activity(in: id, limit: 100).count == 81) // created, 40 added, 40 changed
    }

    @Test("S1: an invite for one person lets one in when two people use it through two instances at once",
          arguments: [StoreKind.sqliteFile, .postgres])
    func concurrentJoins(_ kind: StoreKind) async throws {
        // setup: Alex's ledger with a free Person 2 and an invite for one person
        let (first, second) = try await Self.twoInstances(kind)
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let directory = UserDirectory(store: first, clock: clock)
        let alex = SpendingService(store: first, clock: clock, user: try await directory.user(named: "alex", timeZone: "Europe/Berlin").id)
        let sam = SpendingService(store: first, clock: clock, user: try await directory.user(named: "sam", timeZone: "Europe/Berlin").id)
        let kim = SpendingService(store: second, clock: clock, user: try await directory.user(named: "kim", timeZone: "Europe/Berlin").id)
        let id = try await alex.createLedger(name: "Home", currency: "EUR").ledger.id
        let code = try await alex.openInvite(id).newInviteCode!

        // act: Sam and Kim join at once, each through their own instance
        async let samJoins = outcome { try await sam.join(code: code) }
        async let kimJoins = outcome { try await kim.join(code: code) }
        let results = await [samJoins, kimJoins]

        // check: one is in as Person 2, the other is told the invite is not valid any more
        #expect(results.filter { if case .success = $0 { true } else { false } }.count == 1)
        for case .failure(let error) in results {
            #expect(error as? TallyError == LedgerInviteTerms.notValid)
        }
        let details = try await alex.ledger(id)
        #expect(details.members.map(\.name) == ["Person 1", "Person 2"])
        #expect(details.members.compactMap(\.userID).count == 2)
        #expect(details.invite?.usesLeft == 0)
    }
}

/// What `body` returned or threw.
private func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}
