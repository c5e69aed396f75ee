import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// Two users of one store, each with a spending service.
struct LedgerFixture {
    let f: Fixture
    let alex: SpendingService
    let sam: SpendingService

    init(_ kind: StoreKind) async throws {
        f = try await Fixture(kind, now: "2026-11-21T10:00:00Z", name: "alex")
        alex = SpendingService(store: f.store, clock: f.clock, user: f.user.id)
        let directory = UserDirectory(store: f.store, clock: f.clock)
        sam = SpendingService(store: f.store, clock: f.clock, user: try await directory.user(named: "sam", timeZone: "Europe/Berlin").id)
    }

    /// A EUR ledger that Alex created and Sam joined as Person 2.
    func shared() async throws -> LedgerDetails {
        let ledger = try await alex.createLedger(name: "Home", currency: "EUR")
        let code = try await alex.openInvite(ledger.ledger.id).newInviteCode!
        return try await sam.join(code: code)
    }

    func expense(_ amount: String, by service: SpendingService, in ledger: UUID, _ description: String? = nil,
                 split: SplitBody = .init()) async throws -> SpendingEntry {
        try await service.addExpense(to: ledger, .init(amount: .text(amount), description: description, split: split)).entry
    }
}

@Suite("Ledgers in the store (S1–S5)")
struct LedgerContractTests {
    @Test("S1: a new ledger has Person 1 (its creator) and Person 2", arguments: StoreKind.allCases)
    func newLedger(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.alex.createLedger(name: " Home ", currency: "eur")
        #expect(ledger.ledger.name == "Home" && ledger.ledger.currency.code == "EUR")
        #expect(ledger.members.map(\.name) == ["Person 1", "Person 2"])
        #expect(ledger.members.map(\.userID) == [l.f.user.id, nil])
        #expect(try await l.alex.ledgers().map(\.ledger.id) == [ledger.ledger.id])
        #expect(try await l.sam.ledgers().isEmpty)
    }

    @Test("S1: only members can read or change a ledger: everyone else gets not found", arguments: StoreKind.allCases)
    func membersOnly(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.alex.createLedger(name: "Mine", currency: "EUR")
        let id = ledger.ledger.id
        let entry = try await l.expense("10", by: l.alex, in: id)
        await #expect(throws: TallyError.self) { try await l.sam.ledger(id) }
        await #expect(throws: TallyError.self) { try await l.sam.summary(of: id) }
        await #expect(throws: TallyError.self) { try await l.sam.entries(in: id) }
        await #expect(throws: TallyError.self) { try await l.sam.activity(in: id) }
        await #expect(throws: TallyError.self) { try await l.sam.addExpense(to: id, .init(amount: .text("5"), payer: try await l.sam.id(of: "Person 2", in: id))) }
        await #expect(throws: TallyError.self) { try await l.sam.deleteEntry(entry.id, in: id) }
        await #expect(throws: TallyError.self) { try await l.sam.editEntry(entry.id, in: id, .init(amount: .text("1"))) }
        await #expect(throws: TallyError.self) { try await l.sam.addMember(to: id, name: "Eve") }
        await #expect(throws: TallyError.self) { try await l.sam.openInvite(id) }
        do {
            _ = try await l.sam.ledger(id)
        } catch let error as TallyError {
            #expect(error.kind == .notFound)
        }
        // Nothing changed.
        #expect(try await l.alex.entries(in: id).map(\.id) == [entry.id])
        #expect(try await l.alex.ledger(id).members.count == 2)
    }

    @Test("S1: joining by invite code links Person 2; a revoked code joins nobody", arguments: StoreKind.allCases)
    func invite(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.alex.createLedger(name: "Home", currency: "EUR")
        let code = try await l.alex.openInvite(ledger.ledger.id).newInviteCode!
        #expect(code.count == 14)
        _ = try await l.alex.revokeInvite(ledger.ledger.id)
        await #expect(throws: TallyError.self) { try await l.sam.join(code: code) }
        let again = try await l.alex.openInvite(ledger.ledger.id).newInviteCode!
        #expect(again != code)
        // Typed in lower case without dashes, or pasted as a link: the same code.
        let joined = try await l.sam.join(code: "https://tally.example/join/" + again.lowercased().replacingOccurrences(of: "-", with: ""))
        #expect(joined.members.map(\.name) == ["Person 1", "Person 2"])
        #expect(joined.member(of: l.sam.user)?.name == "Person 2")
        // Joining twice changes nothing.
        #expect(try await l.sam.join(code: again).members.count == 2)
    }

    @Test("S1: up to 50 members, names unique in any case, renameable", arguments: [StoreKind.sqliteInMemory, .postgres])
    func members(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.alex.createLedger(name: "Club", currency: "EUR").ledger.id
        for number in 3...50 { _ = try await l.alex.addMember(to: id, name: "Member \(number)") }
        await #expect(throws: TallyError.conflict("A ledger can have at most 50 members, and this one is full.")) {
            try await l.alex.addMember(to: id, name: "One too many")
        }
        let ledger = try await l.alex.ledger(id)
        await #expect(throws: TallyError.self) { try await l.alex.renameMember(ledger.members[1].id, in: id, to: "person 1") }
        let renamed = try await l.alex.renameMember(ledger.members[1].id, in: id, to: "Sam")
        #expect(renamed.members[1].name == "Sam")
        // A member with an expense stays; one without can go.
        _ = try await l.alex.addExpense(to: id, .init(amount: .text("10"), payer: try await l.alex.id(of: "sam", in: id), split: .init(parts: [.init(member: try await l.alex.id(of: "Sam", in: id))])))
        await #expect(throws: TallyError.self) { try await l.alex.removeMember(renamed.members[1].id, from: id) }
        #expect(try await l.alex.removeMember(renamed.members[2].id, from: id).members.count == 49)
    }

    @Test("S2: a client id records an expense once", arguments: StoreKind.allCases)
    func idempotent(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        let clientID = UUID()
        let first = try await l.alex.addExpense(to: id, .init(id: clientID, amount: .text("12.50")))
        let second = try await l.alex.addExpense(to: id, .init(id: clientID, amount: .text("12.50")))
        #expect(first.created && !second.created)
        #expect(second.entry == first.entry)
        #expect(try await l.alex.entries(in: id).count == 1)
    }

    @Test("S4: a payment sent twice with its id is recorded once", arguments: StoreKind.allCases)
    func paymentOnce(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let ledger = try await l.shared()
        let id = UUID()
        let (p1, p2) = (ledger.members[0].id, ledger.members[1].id)
        let first = try await l.sam.recordPayment(in: ledger.ledger.id, NewPayment(id: id, from: p2, to: p1, amount: .text("5")))
        let again = try await l.sam.recordPayment(in: ledger.ledger.id, NewPayment(id: id, from: p2, to: p1, amount: .text("5")))
        #expect(first.created && !again.created && again.entry == first.entry)
        #expect(try await l.alex.entries(in: ledger.ledger.id).count == 1)
    }

    @Test("S1: joining as a new member picks a Person n that is free")
    func unusedPersonName() async throws {
        let l = try await LedgerFixture(.sqliteInMemory)
        let id = try await l.alex.createLedger(name: "Club", currency: "EUR", memberNames: ["Alex", "Person 3"]).ledger.id
        let code = try await l.alex.openInvite(id).newInviteCode!
        let joined = try await l.sam.join(code: code, newName: nil)
        #expect(joined.member(of: l.sam.user)?.name == "Person 3")
        #expect(LedgerRules.unusedPersonName(among: joined.members) == "Person 4")
        let full = [LedgerMember(id: 1, name: "A", userID: nil), LedgerMember(id: 2, name: "person 3", userID: nil)]
        #expect(LedgerRules.unusedPersonName(among: full) == "Person 4")
    }

    @Test("S3: both members see the same summary, summing to zero", arguments: StoreKind.allCases)
    func summary(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        _ = try await l.expense("30.00", by: l.alex, in: id, "Groceries")
        _ = try await l.expense("10.01", by: l.sam, in: id, "Bread")
        let summary = try await l.alex.summary(of: id)
        #expect(summary.balances.total == 0)
        #expect(summary.balances.members.map(\.paid) == [3000, 1001])
        // 40.01 shared equally: 20.005 each, rounded once; the odd cent to Person 1.
        #expect(summary.balances.members.map(\.share) == [2001, 2000])
        #expect(summary.plan == [Transfer(from: summary.details.members[1].id, to: summary.details.members[0].id, amount: Money(minorUnits: 999, currency: .euro))])
        #expect(try await l.sam.summary(of: id).plan == summary.plan)
    }

    @Test("S4: recording the plan's payment brings every balance to zero", arguments: StoreKind.allCases)
    func settle(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        _ = try await l.expense("45.20", by: l.alex, in: id)
        let plan = try await l.sam.summary(of: id).plan
        for transfer in plan {
            _ = try await l.sam.recordPayment(in: id, NewPayment(from: transfer.from, to: transfer.to, amount: .text(transfer.amount.plain)))
        }
        let after = try await l.alex.summary(of: id)
        #expect(after.balances.members.allSatisfy { $0.balance == 0 })
        #expect(after.plan.isEmpty)
        #expect(after.balances.members.map(\.sent) == [0, 2260])
        #expect(after.balances.members.map(\.received) == [2260, 0])
    }

    @Test("S5: newest first; delete and restore; deleted entries leave the balances", arguments: StoreKind.allCases)
    func deleteAndRestore(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        let old = try await l.alex.addExpense(to: id, .init(amount: .text("5"), date: day("2026-11-01"), description: "Old")).entry
        let new = try await l.expense("7", by: l.sam, in: id, "New")
        #expect(try await l.alex.entries(in: id).map(\.description) == ["New", "Old"])
        _ = try await l.sam.deleteEntry(old.id, in: id)
        #expect(try await l.alex.entries(in: id).map(\.id) == [new.id])
        #expect(try await l.alex.entries(in: id, .all).count == 2)
        #expect(try await l.alex.summary(of: id).balances.members.map(\.paid) == [0, 700])
        await #expect(throws: TallyError.self) { try await l.alex.deleteEntry(old.id, in: id) }
        _ = try await l.alex.restoreEntry(old.id, in: id)
        #expect(try await l.alex.summary(of: id).balances.members.map(\.paid) == [500, 700])
        let log = try await l.alex.activity(in: id).map(\.text)
        #expect(log.prefix(2) == [
            "Restored 5.00 EUR for Old, paid by Person 1, split equally.",
            "Deleted 5.00 EUR for Old, paid by Person 1, split equally.",
        ])
    }

    @Test("S5: an edit is logged with who, when and what changed", arguments: StoreKind.allCases)
    func editLog(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        let entry = try await l.expense("12.50", by: l.alex, in: id, "Pizza")
        l.f.clock.set(instant("2026-11-21T11:00:00Z"))
        let edited = try await l.sam.editEntry(entry.id, in: id, .init(amount: .text("13"), payer: try await l.sam.id(of: "Person 2", in: id), description: .set("Pizza and drinks")))
        #expect(edited.amount.minorUnits == 1300 && edited.payer == entry.split.members[1])
        let last = try await l.alex.activity(in: id, limit: 1)[0]
        #expect(last.actor == "sam")
        #expect(last.at == instant("2026-11-21T11:00:00Z"))
        #expect(last.entryID == entry.id)
        #expect(last.text == "Changed Pizza (12.50 EUR): amount 12.50 EUR → 13.00 EUR; payer Person 1 → Person 2; description “Pizza” → “Pizza and drinks”.")
    }

    @Test("S2: refused changes leave everything as it was", arguments: [StoreKind.sqliteFile, .postgres])
    func refused(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        let entry = try await l.expense("10", by: l.alex, in: id)
        let person1 = try await l.alex.id(of: "Person 1", in: id)
        let bad: [NewExpense] = [
            .init(amount: .text("0")), .init(amount: .text("-1")), .init(amount: .text("1000000.01")),
            .init(amount: .text("1.001")), .init(amount: .decimal(Decimal(string: "0.30000000000000004")!)),
            .init(amount: .text("5"), payer: 999_999),
            .init(amount: .text("5"), description: String(repeating: "x", count: 201)),
            .init(amount: .text("10"), split: .init(method: .exact, parts: [.init(member: person1, value: .text("4"))])),
            .init(amount: .text("10"), split: .init(method: .percent, parts: [.init(member: person1, value: .text("99"))])),
            .init(amount: .text("10"), split: .init(method: .shares)),
        ]
        for input in bad {
            await #expect(throws: TallyError.self) { try await l.alex.addExpense(to: id, input) }
        }
        await #expect(throws: TallyError.self) { try await l.alex.editEntry(entry.id, in: id, .init(amount: .text("0"))) }
        await #expect(throws: TallyError.self) { try await l.alex.changeLedger(id, name: nil, currency: "JPY") }
        #expect(try await l.alex.entries(in: id, .all) == [entry])
        #expect(try await l.alex.ledger(id).ledger.currency.code == "EUR")
        #expect(try await l.alex.activity(in: id).count == 4) // created, invite, joined, added
    }

    @Test("S2: an expense or payment without a date falls on today in the time zone of whoever records it",
          arguments: StoreKind.allCases)
    func todayInTheRecordersZone(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        // 23:30 UTC: already the 22nd in Berlin.
        l.f.clock.set(instant("2026-11-21T23:30:00Z"))
        let expense = try await l.alex.addExpense(to: id, .init(amount: .text("4"))).entry
        let payment = try await l.sam.recordPayment(in: id, NewPayment(from: nil, to: try await l.sam.id(of: "Person 1", in: id), amount: .text("2"))).entry
        #expect(expense.date == day("2026-11-22") && payment.date == day("2026-11-22"))
        let dated = try await l.alex.addExpense(to: id, .init(amount: .text("4"), date: day("2026-01-02"))).entry
        #expect(dated.date == day("2026-01-02"))
    }

    @Test("S5: an entry is found from the first characters of its id, on the index, in its listing only",
          arguments: StoreKind.allCases)
    func entryByIDPrefix(_ kind: StoreKind) async throws {
        let l = try await LedgerFixture(kind)
        let id = try await l.shared().ledger.id
        let other = try await l.alex.createLedger(name: "Other", currency: "EUR").ledger.id
        var kept: [UUID] = []
        for _ in 0..<40 { kept.append(try await l.expense("1", by: l.alex, in: id).id) }
        let elsewhere = try await l.expense("1", by: l.alex, in: other).id
        let gone = try await l.alex.deleteEntry(kept.removeLast(), in: id).id
        for entry in kept.prefix(10) {
            let text = entry.uuidString
            // Every length, in either case, dashes in or out.
            for length in [1, 2, 3, 8, 9, 13, 23, 36] {
                let prefix = String(text.prefix(length))
                let matching = Set(kept.filter { $0.uuidString.hasPrefix(prefix) })
                let found = try await l.alex.entryIDs(startingWith: prefix.lowercased(), in: id, .current)
                #expect(found.count == min(2, matching.count) && Set(found).isSubset(of: matching), "\(prefix)")
            }
            #expect(try await l.alex.entryIDs(startingWith: text.replacingOccurrences(of: "-", with: ""), in: id, .current) == [entry])
        }
        #expect(try await l.alex.entryIDs(startingWith: gone.uuidString, in: id, .current).isEmpty)
        #expect(try await l.alex.entryIDs(startingWith: gone.uuidString, in: id, .deleted) == [gone])
        #expect(try await l.alex.entryIDs(startingWith: kept[0].uuidString, in: id, .deleted).isEmpty)
        #expect(try await l.alex.entryIDs(startingWith: elsewhere.uuidString, in: id, .all).isEmpty)
        for nonsense in ["", "xyz", String(repeating: "a", count: 33), "%"] {
            #expect(try await l.alex.entryIDs(startingWith: nonsense, in: id, .all).isEmpty, "\(nonsense)")
        }
        await #expect(throws: TallyError.self) { try await l.f.store.entryIDs(startingWith: "a", in: other, of: l.sam.user, .all, limit: 2) }
    }
}
