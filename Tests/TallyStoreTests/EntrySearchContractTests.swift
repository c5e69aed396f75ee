import Foundation
import TallyAPI
import GRDB
import TallyCore
@testable import TallyPostgres
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// Finding entries: words in descriptions, a member, a category and dates, each alone and
/// together, a page at a time, in every store.
@Suite("Searching a ledger's entries")
struct EntrySearchContractTests {
    @Test("Each condition keeps the entries it names, together they all hold, and pages of a search hold every match once",
          arguments: StoreKind.allCases)
    func search(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        let dana = try await l.alex.addMember(to: id, name: "Dana").members.last!.id
        let (alex, sam) = (ledger.members[0].id, ledger.members[1].id)
        func day(_ n: Int) -> LocalDate { LocalDate(number: LocalDate("2026-11-01")!.number + n) }
        func add(_ amount: String, _ description: String?, _ category: String? = nil, on n: Int, payer: MemberID? = nil,
                 among members: [MemberID]? = nil) async throws -> UUID {
            let split = members.map { SplitBody(method: .equal, parts: $0.map { .init(member: $0) }) } ?? .init()
            return try await l.alex.addExpense(to: id, .init(amount: .text(amount), payer: payer, date: day(n),
                                                             description: description, category: category, split: split)).entry.id
        }
        let cafe = try await add("4.20", "Café au lait", "Food", on: 0)
        let groceries = try await add("52.10", "Groceries at the market", "Food", on: 2, payer: sam)
        let cinema = try await add("24", "CINEMA tickets", "Fun", on: 5, among: [alex, dana])
        let wide = try await add("8", "ｃａｆｅ ｗｉｄｅ", nil, on: 6, payer: sam, among: [sam])
        let blank = try await add("3", nil, "Food", on: 9)
        let payment = try await l.alex.recordPayment(in: id, NewPayment(from: dana, to: sam, amount: .text("10"), date: day(7))).entry.id
        let deleted = try await add("1", "Cafe we left", "Food", on: 8)
        _ = try await l.alex.deleteEntry(deleted, in: id)

        func found(_ filter: EntryFilter, _ listing: EntryListing = .current) async throws -> [UUID] {
            try await l.sam.entries(in: id, listing, matching: filter).map(\.id)
        }
        // Newest first, as every listing.
        #expect(try await found(try EntryFilter(words: "cafe")) == [wide, cafe], "case, accents and widths do not count")
        #expect(try await found(try EntryFilter(words: " CAFÉ ")) == [wide, cafe])
        #expect(try await found(try EntryFilter(words: "cafe"), .all) == [deleted, wide, cafe], "deleted ones only when asked")
        #expect(try await found(try EntryFilter(words: "market")) == [groceries])
        #expect(try await found(try EntryFilter(words: "%")).isEmpty, "a LIKE wildcard is a character like any other")
        #expect(try await found(try EntryFilter(words: "   ")) == [blank, payment, wide, cinema, groceries, cafe], "no words: no condition")
        #expect(try await found(try EntryFilter(member: dana)) == [blank, payment, cinema, groceries, cafe], "who sent a payment, and who has a share")
        #expect(try await found(try EntryFilter(member: sam)) == [blank, payment, wide, groceries, cafe], "who paid, received, or shares")
        #expect(try await found(try EntryFilter(category: "Food")) == [blank, groceries, cafe])
        #expect(try await found(try EntryFilter(category: "food")).isEmpty, "a category as it was written")
        #expect(try await found(try EntryFilter(from: day(2), through: day(6))) == [wide, cinema, groceries], "both ends included")
        #expect(try await found(try EntryFilter(through: day(0))) == [cafe])
        #expect(try await found(try EntryFilter(words: "a", member: sam, category: "Food", from: day(1))) == [groceries], "all at once")

        // A page at a time: every match once, in order.
        var seen: [UUID] = []
        var after: UUID?
        repeat {
            let page = try await l.sam.entries(in: id, .current, matching: try EntryFilter(category: "Food"), limit: 2, after: after)
            seen += page.map(\.id)
            after = page.count == 2 ? page.last!.id : nil
        } while after != nil
        #expect(seen == [blank, groceries, cafe])

        let (_, overview) = try await l.alex.overview(of: id, matching: try EntryFilter(words: "ca"), limit: 1, spentSince: YearMonth("2026-01")!)
        #expect(overview.entries.map(\.id) == [wide] && overview.hasMore)
        #expect(overview.recentCategories == ["Food", "Fun"], "the categories of the expenses that count")
        #expect(overview.standing.totals == (try await l.alex.overview(of: id, limit: 1, spentSince: YearMonth("2026-01")!)).overview.standing.totals,
                "a search changes no balance")

        let other = try await l.sam.createLedger(name: "Sam's", currency: "EUR")
        #expect(try await found(try EntryFilter(member: other.members[0].id)).isEmpty, "another ledger's member shares nothing here")
        #expect(try await found(try EntryFilter(from: day(4), through: day(1))).isEmpty, "no day is after its end")
        #expect(throws: TallyError.invalid("A search can be at most 100 characters long.")) {
            try EntryFilter(words: String(repeating: "é", count: 101))
        }
        #expect(try EntryFilter(words: String(repeating: " ", count: 100)).isEverything)
    }

    @Test("A ledger's spending by month and category: expenses only, deleted ones left out, from the month asked on",
          arguments: StoreKind.allCases)
    func spentByMonth(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = ledger.ledger.id
        func add(_ amount: String, _ category: String?, _ date: String) async throws -> UUID {
            try await l.alex.addExpense(to: id, .init(amount: .text(amount), date: LocalDate(date)!, category: category)).entry.id
        }
        _ = try await add("100", "Rent", "2025-12-31")
        _ = try await add("10.50", "Food", "2026-01-01")
        _ = try await add("4.25", "Food", "2026-01-31")
        _ = try await add("7", nil, "2026-01-15")
        _ = try await add("800", "Rent", "2026-02-01")
        let gone = try await add("99", "Food", "2026-02-02")
        _ = try await l.alex.deleteEntry(gone, in: id)
        _ = try await l.alex.recordPayment(in: id, NewPayment(from: ledger.members[1].id, to: ledger.members[0].id, amount: .text("50"),
                                                              date: LocalDate("2026-02-03")!))
        let (_, overview) = try await l.sam.overview(of: id, limit: 1, spentSince: YearMonth("2026-01")!)
        #expect(overview.spent == [
            MonthlySpending(month: YearMonth("2026-01")!, category: nil, amount: 700),
            MonthlySpending(month: YearMonth("2026-01")!, category: "Food", amount: 1475),
            MonthlySpending(month: YearMonth("2026-02")!, category: "Rent", amount: 80000),
        ])
    }

    @Test("An edit is found by its new description, not its old one", arguments: StoreKind.allCases)
    func editedDescription(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.alex.createLedger(name: "Home", currency: "EUR").ledger.id
        let entry = try await l.expense("12", by: l.alex, in: id, "Pizza")
        _ = try await l.alex.editEntry(entry.id, in: id, .init(description: .set("Sushi")))
        #expect(try await l.alex.entries(in: id, matching: try EntryFilter(words: "pizza")).isEmpty)
        #expect(try await l.alex.entries(in: id, matching: try EntryFilter(words: "sushi")).map(\.id) == [entry.id])
    }

    /// Entries written before the search existed, as a database of that time has them.
    private func describedEntries(_ store: any TallyStorage) async throws -> (SpendingService, UUID) {
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let user = try await UserDirectory(store: store, clock: clock).user(named: "alex", timeZone: "Europe/Berlin")
        let spending = SpendingService(store: store, clock: clock, user: user.id)
        let ledger = try await spending.createLedger(name: "Home", currency: "EUR").ledger.id
        for description in ["Café au lait", "Tea"] {
            try await spending.addExpense(to: ledger, .init(amount: .text("3"), description: description))
        }
        return (spending, ledger)
    }

    @Test("SQLite's migration 16 makes the entries already written findable")
    func sqliteMigration() async throws {
        let path = temporaryDatabasePath()
        let (_, ledger) = try await describedEntries(try SQLiteStore.open(path: path))
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "ALTER TABLE spendingEntry DROP COLUMN searchKey")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = '16 entry search'")
        }
        let reopened = try SQLiteStore.open(path: path)
        let alex = try #require(try await reopened.user(named: "alex"))
        let spending = SpendingService(store: reopened, clock: FixedClock(instant("2026-11-21T10:00:00Z")), user: alex.id)
        #expect(try await spending.entries(in: ledger, matching: try EntryFilter(words: "CAFE")).map(\.description) == ["Café au lait"])
    }

    @Test("PostgreSQL's migration 2 makes the entries already written findable")
    func postgresMigration() async throws {
        let (url, schema) = (try testPostgresURL(), "search_\(UUID().uuidString.prefix(8).lowercased())")
        let store = try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 2)
        let (_, ledger) = try await describedEntries(store)
        _ = try await store.client.query("ALTER TABLE spendingEntry DROP COLUMN searchKey").collect()
        _ = try await store.client.query("DELETE FROM schemaVersion WHERE version = 2").collect()
        store.close()
        let again = try await PostgresStore.connect(url: url, schema: schema, maximumConnections: 2)
        defer { again.close() }
        let alex = try #require(try await again.user(named: "alex"))
        let spending = SpendingService(store: again, clock: FixedClock(instant("2026-11-21T10:00:00Z")), user: alex.id)
        #expect(try await spending.entries(in: ledger, matching: try EntryFilter(words: "cafe")).map(\.description) == ["Café au lait"])
    }
}
