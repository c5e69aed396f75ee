import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// The numbers an open page watches (a ledger's revision, a person's drink revision): every
/// change moves them on in its own transaction, nothing else does, and every instance on the
/// database reads the same.
@Suite("Revisions: what tells an open page that what it shows changed")
struct RevisionContractTests {
    @Test("A ledger's revision moves on with each change to it, and with nothing else", arguments: StoreKind.allCases)
    func ledgerRevision(_ kind: StoreKind) async throws {
        // setup: Ada's ledger with Sam, and a second ledger
        let fixture = try await Fixture(kind)
        let spending = SpendingService(store: fixture.store, clock: fixture.clock, user: fixture.user.id)
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Ada", "Sam"])
        let other = try await spending.createLedger(name: "Trip", currency: "EUR")
        let id = home.ledger.id
        var seen = try await spending.revision(of: id)
        // Each step must move it on (a change) or leave it (no change).
        func step(_ what: String, moves: Bool, _ action: () async throws -> Void) async throws {
            try await action()
            let now = try await spending.revision(of: id)
            #expect((now != seen) == moves, "\(what): \(seen) → \(now)")
            if moves { #expect(now > seen, "\(what) went back") }
            seen = now
        }

        // act and check
        let key = UUID()
        var expenseID = key
        try await step("an expense", moves: true) {
            expenseID = try await spending.addExpense(to: id, .init(id: key, amount: .text("12.50"), description: "Dinner")).entry.id
        }
        try await step("the same expense sent again", moves: false) {
            _ = try await spending.addExpense(to: id, .init(id: key, amount: .text("12.50"), description: "Dinner"))
        }
        try await step("a refused expense", moves: false) {
            await #expect(throws: TallyError.self) { try await spending.addExpense(to: id, .init(amount: .text("-1"))) }
        }
        try await step("an edit", moves: true) {
            _ = try await spending.editEntry(expenseID, in: id, .init(description: .set("Dinner out")))
        }
        try await step("a delete", moves: true) { _ = try await spending.deleteEntry(expenseID, in: id) }
        try await step("a restore", moves: true) { _ = try await spending.restoreEntry(expenseID, in: id) }
        try await step("a payment", moves: true) {
            _ = try await spending.recordPayment(in: id, NewPayment(from: try await spending.id(of: "Sam", in: id), to: try await spending.id(of: "Ada", in: id), amount: .text("5")))
        }
        try await step("a member renamed", moves: true) {
            _ = try await spending.renameMember(home.members[1].id, in: id, to: "Samira")
        }
        try await step("another ledger's expense", moves: false) {
            _ = try await spending.addExpense(to: other.ledger.id, .init(amount: .text("3")))
        }
        try await step("reading the page", moves: false) {
            let (_, overview) = try await spending.overview(of: id, limit: 10, spentSince: YearMonth(year: 2025, month: 1)!)
            #expect(overview.revision == seen, "the page's read gives the revision it was read at")
        }

        // check: only members read it, as they read the ledger
        let bob = try await UserDirectory(store: fixture.store, clock: fixture.clock).user(named: "bob", timeZone: "Europe/Berlin")
        let stranger = SpendingService(store: fixture.store, clock: fixture.clock, user: bob.id)
        await #expect(throws: TallyError.notFound("There is no ledger with the id \(id) that you are a member of.")) {
            try await stranger.revision(of: id)
        }
        await #expect(throws: TallyError.self) { try await spending.revision(of: UUID()) }
    }

    @Test("A day's revision moves on with each change to the day's drinks, even its last one going, and with nothing else",
          arguments: StoreKind.allCases)
    func dayRevision(_ kind: StoreKind) async throws {
        // setup: Ada in Berlin on 15 June, and Bob
        let fixture = try await Fixture(kind)
        let hydration = fixture.hydration
        let bob = try await fixture.otherUser()
        let today = day("2025-06-15")
        #expect(try await hydration.dayRevision(on: today) == 0, "a day never written")
        var seen: Int64 = 0
        func step(_ what: String, moves: Bool, _ action: () async throws -> Void) async throws {
            try await action()
            let now = try await hydration.dayRevision(on: today)
            #expect((now != seen) == moves, "\(what): \(seen) → \(now)")
            if moves { #expect(now > seen, "\(what) went back") }
            seen = now
        }

        // act and check
        let drinkID = UUID()
        try await step("a drink", moves: true) { _ = try await hydration.logDrink(.init(volumeMl: 250, id: drinkID)) }
        try await step("the same drink sent again", moves: false) { _ = try await hydration.logDrink(.init(volumeMl: 250, id: drinkID)) }
        try await step("an edit", moves: true) { _ = try await hydration.editDrink(id: drinkID, .init(volumeMl: 300)) }
        try await step("a removal", moves: true) { _ = try await hydration.remove(volumeMl: 100) }
        try await step("a refused removal", moves: false) {
            await #expect(throws: TallyError.self) { try await hydration.remove(volumeMl: 5000) }
        }
        try await step("someone else's drink", moves: false) { _ = try await bob.logDrink(.init(volumeMl: 500)) }
        try await step("a drink on another day", moves: false) {
            _ = try await hydration.logDrink(.init(volumeMl: 200, at: instant("2025-06-14T10:00:00Z")))
        }
        try await step("the day's entries all deleted", moves: true) {
            for entry in try await hydration.daySummary(on: today).entries.reversed() { _ = try await hydration.deleteEntry(id: entry.id) }
        }
        #expect(try await hydration.daySummary(on: today).totalMl == 0)
        #expect(try await fixture.store.dailyTotals(of: fixture.user.id, from: nil, through: nil).keys.sorted() == [day("2025-06-14")],
                "a day whose entries all went has no total")
        try await step("a drink again", moves: true) { _ = try await hydration.logDrink(.init(volumeMl: 250)) }
        try await step("an import of many drinks onto the day", moves: true) {
            let (start, water) = (instant("2025-06-15T05:00:00Z"), try await fixture.kind("water"))
            let drinks = (0..<50).map { Intake(id: UUID(), at: start.addingTimeInterval(Double($0) * 60), day: today,
                                               volumeMl: 10, kind: water, note: nil, source: .import) }
            #expect(try await fixture.store.addIntakes(drinks, of: fixture.user.id) == 50)
        }
        #expect(try await hydration.daySummary(on: today).totalMl == 750)
    }

    @Test("Two instances on one database read the same revision, and every change made through either moves it on once",
          arguments: [StoreKind.sqliteFile, .postgres])
    func acrossInstances(_ kind: StoreKind) async throws {
        // setup: one ledger, a service on each instance
        let (first, second) = try await LedgerInstancesContractTests.twoInstances(kind)
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let ada = try await UserDirectory(store: first, clock: clock).user(named: "ada", timeZone: "Europe/Berlin").id
        let services = [SpendingService(store: first, clock: clock, user: ada), SpendingService(store: second, clock: clock, user: ada)]
        let id = try await services[0].createLedger(name: "Home", currency: "EUR").ledger.id
        let before = try await services[1].revision(of: id)

        // act: 30 expenses through both instances at once, while the second one watches
        let watched = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for index in 0..<30 {
                group.addTask {
                    _ = try await services[index % 2].addExpense(to: id, .init(amount: .text("\(index + 1)")))
                    return []
                }
            }
            group.addTask {
                var seen: [Int64] = []
                for _ in 0..<40 { seen.append(try await services[1].revision(of: id)) }
                return seen
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }

        // check: never backwards, and 30 changes moved it 30 times, as each instance reads it
        #expect(watched == watched.sorted())
        #expect(try await services[0].revision(of: id) == before + 30)
        #expect(try await services[1].revision(of: id) == before + 30)
    }
}
