import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import TallyPostgres
import Testing

/// Whether `following` wakes within `time`. One that does not is finished (its wakes end), so a
/// "no" is a test's last question to it.
func wakes(_ following: ChangeSignals.Following, within time: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            var wakes = following.wakes.makeAsyncIterator()
            return await wakes.next() != nil
        }
        group.addTask {
            try? await Task.sleep(for: time)
            return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
    }
}

/// The store's watch (`watchChanges`) running until the test ends, once it listens: what a
/// server runs beside its requests.
func watching(_ store: any TallyStorage, _ body: () async throws -> Void) async throws {
    let ready = store.changes.follow(.ledger(UUID()))
    let watch = Task { try await store.watchChanges() }
    defer { watch.cancel() }
    if store is PostgresStore {
        // PostgreSQL's listener wakes everyone once it listens.
        #expect(await wakes(ready, within: .seconds(10)), "the listener listens")
    }
    ready.finish()
    try await body()
}

/// A commit wakes those who follow what it touched, once it is committed, whichever store.
@Suite("Change signals of every store")
struct ChangeSignalContractTests {
    /// (A command's single connection is followed by no one: it signals nothing.)
    @Test("A drink wakes its day's followers, an expense its ledger's; another day, person or ledger no one",
          arguments: StoreKind.allCases.filter { $0 != .sqliteFileOneConnection })
    func commitsWakeTheirTopics(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared().ledger.id
        let other = try await l.sam.createLedger(name: "Sam's", currency: "EUR").ledger.id
        let today = LocalDate(year: 2026, month: 11, day: 21)!
        let changes = l.f.store.changes
        try await watching(l.f.store) {
            let day = changes.follow(.day(user: l.f.user.id, today))
            let yesterday = changes.follow(.day(user: l.f.user.id, LocalDate(year: 2026, month: 11, day: 20)!))
            let samsDay = changes.follow(.day(user: l.sam.user, today))
            let home = changes.follow(.ledger(ledger))
            let samsLedger = changes.follow(.ledger(other))

            try await l.f.hydration.logDrink(.init(volumeMl: 250))
            #expect(await wakes(day, within: .seconds(10)), "the day of the drink")
            _ = try await l.expense("12.50", by: l.alex, in: ledger)
            #expect(await wakes(home, within: .seconds(10)), "the ledger of the expense")
            // The later commit's wake has come: the earlier one's would have come before it.
            for (following, what) in [(yesterday, "another day"), (samsDay, "another person's day"), (samsLedger, "another ledger")] {
                #expect(await !wakes(following, within: .milliseconds(200)), "\(what) is not woken")
            }

            // A drink moved to another day wakes both days; a deleted expense its ledger.
            let before = changes.follow(.day(user: l.f.user.id, today))
            let after = changes.follow(.day(user: l.f.user.id, LocalDate(year: 2026, month: 11, day: 20)!))
            let drink = try await l.f.hydration.logDrink(.init(volumeMl: 100)).intake
            #expect(await wakes(before, within: .seconds(10)))
            _ = try await l.f.hydration.editDrink(id: drink.id, .init(at: instant("2026-11-20T12:00:00Z")))
            #expect(await wakes(before, within: .seconds(10)), "the day a drink moved from")
            #expect(await wakes(after, within: .seconds(10)), "the day a drink moved to")
        }
        #expect(changes.followerCount == 0, "an ended follower is forgotten")
    }

    @Test("A command's commit on the same SQLite file wakes the server's followers, who read again")
    func anotherProcess() async throws {
        let path = temporaryDatabasePath()
        let server = try SQLiteStore.open(path: path)
        let command = try SQLiteStore.open(path: path, access: .singleConnection)
        let clock = FixedClock(instant("2025-06-15T10:00:00Z"))
        let user = try await UserDirectory(store: server, clock: clock).user(named: "ada", timeZone: "Europe/Berlin")
        try await watching(server) {
            let day = server.changes.follow(.day(user: user.id, LocalDate(year: 2025, month: 6, day: 15)!))
            try await Task.sleep(for: .milliseconds(400)) // the watch has read the file's version
            try await HydrationService(store: command, clock: clock, user: user.id).logDrink(.init(volumeMl: 250))
            #expect(await wakes(day, within: .seconds(5)))
        }
    }
}
