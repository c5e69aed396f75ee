import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// Recurring expenses in every store: set up, recorded on their days as ordinary entries (each
/// once), paused, resumed, ended and deleted, with the activity log and the balances following.
@Suite("Recurring expenses in the store")
struct RecurringContractTests {
    /// Alex's shared ledger (Sam joined) on 21 November 2026, Berlin, with the schedule Alex's server runs.
    struct Setup {
        let l: LedgerFixture
        let ledger: LedgerDetails
        var id: UUID { ledger.ledger.id }
        var schedule: RecurringSchedule { RecurringSchedule(store: l.f.store, clock: l.f.clock) }

        init(_ kind: StoreKind) async throws {
            l = try await LedgerFixture(kind)
            ledger = try await l.shared()
        }

        func rent(_ amount: String = "800.00", start: String? = nil, end: String? = nil, rule: RecurrenceRule = .monthly(day: 1)) async throws -> RecurringExpense {
            try await l.alex.addRecurringExpense(to: id, .init(amount: .text(amount), description: "Rent", repeat: RepeatBody(rule),
                                                               startDate: start.map(day), endDate: end.map(day)))
        }

        func move(to text: String) { l.f.clock.set(instant(text)) }

        func entries() async throws -> [SpendingEntry] { try await l.alex.entries(in: id) }
    }

    @Test("A monthly expense is recorded on its day, and the missed ones each on its own day, once", arguments: StoreKind.allCases)
    func recordedOnItsDays(_ kind: StoreKind) async throws {
        // setup: rent on the 1st from December
        let s = try await Setup(kind)
        let rent = try await s.rent()
        #expect(rent.nextDate == day("2026-12-01") && rent.status == .active && rent.timeZone == "Europe/Berlin")
        #expect(try await s.schedule.recordDue().added.isEmpty)

        // act: the server was down from before 1 December until 2 February
        s.move(to: "2027-02-02T08:00:00Z")
        let added = try await s.schedule.recordDue().added

        // check: three entries, each on its day, with the id made from the expense and the day
        #expect(added.map(\.date) == [day("2026-12-01"), day("2027-01-01"), day("2027-02-01")])
        #expect(added.map(\.id) == added.map { rent.entryID(on: $0.date) })
        #expect(try await s.entries().map(\.date) == [day("2027-02-01"), day("2027-01-01"), day("2026-12-01")])
        #expect(try await s.entries().allSatisfy { $0.description == "Rent" && $0.amount.plain == "800.00" && $0.payer == s.ledger.members[0].id })
        let summary = try await s.l.alex.summary(of: s.id)
        #expect(summary.balances.members.map(\.paid) == [240_000, 0])
        #expect(summary.sentences == ["Person 2 owes Person 1 1200.00 EUR."])
        let stored = try await s.l.sam.recurringExpense(rent.id, in: s.id)
        #expect(stored.nextDate == day("2027-03-01"))
        let log = try await s.l.sam.activity(in: s.id, limit: 3)
        #expect(log.map(\.actor) == ["alex", "alex", "alex"])
        #expect(log[0].text == "Added 800.00 EUR for Rent, paid by Person 1, split equally, on its schedule (every month on the 1st).")
        #expect(log[0].entryID == added[2].id)

        // act and check: running again records nothing more
        #expect(try await s.schedule.recordDue().added.isEmpty)
        #expect(try await s.entries().count == 3)
    }

    @Test("An occurrence due today is recorded as it is set up; its entries are ordinary and can be deleted", arguments: StoreKind.allCases)
    func dueToday(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        // act: every Saturday, set up on Saturday 21 November
        let weekly = try await s.rent("20.00", rule: .weekly(weekday: 6))

        // check: today's is there already, and deleting it does not bring it back
        #expect(weekly.nextDate == day("2026-11-28"))
        let today = try #require(try await s.entries().first)
        #expect(today.date == day("2026-11-21"))
        _ = try await s.l.alex.deleteEntry(today.id, in: s.id)
        #expect(try await s.schedule.recordDue().added.isEmpty)
        #expect(try await s.entries().isEmpty)
    }

    @Test("Paused, nothing is recorded; resumed, it goes on from today, skipping what fell meanwhile", arguments: StoreKind.allCases)
    func pauseAndResume(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        let rent = try await s.rent()
        let paused = try await s.l.sam.pauseRecurringExpense(rent.id, in: s.id)
        #expect(paused.status == .paused && paused.pausedAt == instant("2026-11-21T10:00:00Z"))

        s.move(to: "2027-01-15T10:00:00Z")
        #expect(try await s.schedule.recordDue().added.isEmpty)
        let resumed = try await s.l.sam.resumeRecurringExpense(rent.id, in: s.id)

        #expect(resumed.status == .active && resumed.nextDate == day("2027-02-01") && resumed.pausedAt == nil)
        #expect(try await s.entries().isEmpty)
        let log = try await s.l.alex.activity(in: s.id, limit: 2).map(\.text)
        #expect(log == ["Resumed the recurring expense Rent (every month on the 1st); next on 2027-02-01.",
                        "Paused the recurring expense Rent (every month on the 1st)."])
    }

    @Test("Ended, it records its last day and nothing after; deleted, its entries stay", arguments: StoreKind.allCases)
    func endAndDelete(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        let rent = try await s.rent()
        s.move(to: "2026-12-01T09:00:00Z")
        let ended = try await s.l.alex.endRecurringExpense(rent.id, in: s.id)
        #expect(ended.status == .ended && ended.endDate == day("2026-12-01") && ended.nextDate == day("2027-01-01"))
        s.move(to: "2027-03-01T09:00:00Z")
        #expect(try await s.schedule.recordDue().added.isEmpty)
        #expect(try await s.entries().map(\.date) == [day("2026-12-01")])

        try await s.l.sam.deleteRecurringExpense(rent.id, in: s.id)
        #expect(try await s.l.alex.recurringExpenses(in: s.id).isEmpty)
        #expect(try await s.entries().count == 1)
        await #expect(throws: TallyError.notFound("There is no recurring expense with the id \(rent.id) in this ledger.")) {
            try await s.l.alex.recurringExpense(rent.id, in: s.id)
        }
    }

    @Test("A change is checked like an expense, logged field by field, and a new rule counts from today", arguments: StoreKind.allCases)
    func change(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        let rent = try await s.rent()
        let changed = try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(
            amount: .text("850"), payer: s.ledger.members[1].id, repeat: RepeatBody(.monthly(day: 15))))
        #expect(changed.template.amount.plain == "850.00" && changed.template.payer == s.ledger.members[1].id)
        #expect(changed.nextDate == day("2026-12-15"))
        let note = try #require(try await s.l.alex.activity(in: s.id, limit: 1).first).text
        #expect(note == "Changed the recurring expense Rent (every month on the 1st): amount 800.00 EUR → 850.00 EUR; payer Person 1 → Person 2; "
                + "repeats every month on the 1st → every month on the 15th; next 2026-12-01 → 2026-12-15.")

        // check: refused changes leave it as it was
        await #expect(throws: TallyError.self) {
            try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(amount: .text("0")))
        }
        await #expect(throws: TallyError.self) {
            try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(endDate: .set(day("2026-11-20"))))
        }
        await #expect(throws: TallyError.self) {
            try await s.l.alex.changeRecurringExpense(rent.id, in: s.id, .init(startDate: day("2026-11-01")))
        }
        #expect(try await s.l.alex.recurringExpense(rent.id, in: s.id) == changed)
    }

    @Test("Refused: a start in the past, an end before the first day, a stranger's ledger", arguments: StoreKind.allCases)
    func refusals(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        await #expect(throws: TallyError.invalid("A recurring expense starts today (2026-11-21 in Europe/Berlin) or later; add the earlier ones as expenses.", field: "startDate")) {
            try await s.rent(start: "2026-11-01")
        }
        await #expect(throws: TallyError.invalid("The end date 2026-11-30 is before the first occurrence, 2026-12-01: pick a later end, or none.", field: "endDate")) {
            try await s.rent(end: "2026-11-30")
        }
        await #expect(throws: TallyError.self) {
            try await s.l.alex.addRecurringExpense(to: s.id, .init(amount: .text("1"), repeat: RepeatBody(.monthly(day: 1)), timeZone: "Mars/Olympus"))
        }
        let directory = UserDirectory(store: s.l.f.store, clock: s.l.f.clock)
        let kim = SpendingService(store: s.l.f.store, clock: s.l.f.clock, user: try await directory.user(named: "kim", timeZone: "UTC").id)
        await #expect(throws: TallyError.self) { try await kim.recurringExpenses(in: s.id) }
        await #expect(throws: TallyError.self) {
            try await kim.addRecurringExpense(to: s.id, .init(amount: .text("1"), repeat: RepeatBody(.monthly(day: 1))))
        }
        #expect(try await s.l.alex.recurringExpenses(in: s.id).isEmpty)
    }

    @Test("A member with both expenses and a recurring expense is refused for the expenses first, on every store", arguments: StoreKind.allCases)
    func removalRefusedInOneOrder(_ kind: StoreKind) async throws {
        // setup: Kim shares an expense and a recurring one
        let s = try await Setup(kind)
        let kim = try await s.l.alex.addMember(to: s.id, name: "Kim").members.last!
        let justKim = SplitBody(method: .equal, parts: [.init(member: kim.id)])
        _ = try await s.l.alex.addExpense(to: s.id, .init(amount: .text("4.00"), description: "Coffee", split: justKim))
        _ = try await s.l.alex.addRecurringExpense(to: s.id, .init(amount: .text("9.99"), description: "Music", split: justKim, repeat: RepeatBody(.monthly(day: 5))))

        // act and check: the same sentence from SQLite and PostgreSQL, and Kim stays
        await #expect(throws: TallyError.conflict("Kim has expenses or payments in this ledger (deleted ones included), so they stay a member; rename them instead.")) {
            try await s.l.alex.removeMember(kim.id, from: s.id)
        }
        #expect(try await s.l.alex.ledger(s.id).members.contains(kim))
    }

    @Test("A member a recurring expense names stays, and so does the ledger's currency", arguments: StoreKind.allCases)
    func keepsMembersAndCurrency(_ kind: StoreKind) async throws {
        let s = try await Setup(kind)
        let kim = try await s.l.alex.addMember(to: s.id, name: "Kim").members.last!
        _ = try await s.l.alex.addRecurringExpense(to: s.id, .init(
            amount: .text("9.99"), description: "Music", split: .init(method: .equal, parts: [.init(member: kim.id)]), repeat: RepeatBody(.monthly(day: 5))))
        await #expect(throws: TallyError.conflict("Kim pays for or shares the recurring expense Music (every month on the 5th): change it or delete it first, or rename Kim instead.")) {
            try await s.l.alex.removeMember(kim.id, from: s.id)
        }
        await #expect(throws: TallyError.self) { try await s.l.alex.changeLedger(s.id, name: nil, currency: "USD") }
        #expect(try await s.l.alex.ledger(s.id).members.count == 3)
    }

    @Test("The day comes at midnight where the expense counts its days, across a change of clocks", arguments: [StoreKind.sqliteInMemory, .postgres])
    func dayBoundaryAndDST(_ kind: StoreKind) async throws {
        // setup: every Sunday, in Berlin; on Sunday 29 March 2026 Berlin moves from UTC+1 to UTC+2
        let s = try await Setup(kind)
        s.move(to: "2026-03-20T10:00:00Z")
        let sundays = try await s.rent("5.00", rule: .weekly(weekday: 7))
        #expect(sundays.nextDate == day("2026-03-22"))
        s.move(to: "2026-03-21T22:59:59Z") // Saturday 23:59:59 in Berlin
        #expect(try await s.schedule.recordDue().added.isEmpty)
        s.move(to: "2026-03-21T23:00:00Z") // Sunday 00:00 in Berlin, still Saturday in UTC
        #expect(try await s.schedule.recordDue().added.map(\.date) == [day("2026-03-22")])

        // act and check: the next Sunday starts an hour earlier in UTC, after the clocks changed
        s.move(to: "2026-03-28T22:59:59Z") // Saturday 23:59:59, UTC+1
        #expect(try await s.schedule.recordDue().added.isEmpty)
        s.move(to: "2026-03-28T23:00:00Z") // Sunday 00:00 (the clocks go forward at 02:00)
        #expect(try await s.schedule.recordDue().added.map(\.date) == [day("2026-03-29")])
        s.move(to: "2026-04-04T21:59:59Z") // Saturday 23:59:59, now UTC+2
        #expect(try await s.schedule.recordDue().added.isEmpty)
        s.move(to: "2026-04-04T22:00:00Z")
        #expect(try await s.schedule.recordDue().added.map(\.date) == [day("2026-04-05")])
    }
}
