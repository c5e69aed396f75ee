import Foundation
import TallyAPI
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// Several `tally serve` instances on one database run the recurring expenses' schedule at the
/// same moments: each occurrence is recorded once.
@Suite("Recurring expenses recorded by several instances at once")
struct RecurringInstancesContractTests {
    @Test("Every occurrence is recorded exactly once when two instances run the schedule at once, again and again",
          arguments: [StoreKind.sqliteFile, .postgres])
    func onceEach(_ kind: StoreKind) async throws {
        // setup: a ledger with five recurring expenses on one instance, two months before the
        // instances next look
        let (first, second) = try await LedgerInstancesContractTests.twoInstances(kind)
        let clock = FixedClock(instant("2026-11-21T10:00:00Z"))
        let alex = try await UserDirectory(store: first, clock: clock).user(named: "alex", timeZone: "Europe/Berlin").id
        let spending = SpendingService(store: first, clock: clock, user: alex)
        let ledger = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Alex", "Sam"]).ledger.id
        let rules: [RecurrenceRule] = [.monthly(day: 1), .monthly(day: 31), .weekly(weekday: 1), .weekly(weekday: 5), .yearly(month: 1, day: 15)]
        for (index, rule) in rules.enumerated() {
            _ = try await spending.addRecurringExpense(to: ledger, .init(amount: .text("\(index + 1).00"), description: "Bill \(index)",
                                                                          repeat: RepeatBody(rule), startDate: day("2026-11-22")))
        }
        clock.set(instant("2027-01-20T12:00:00Z"))

        // act: both instances run the schedule at once, four times over
        let schedules = [RecurringSchedule(store: first, clock: clock), RecurringSchedule(store: second, clock: clock)]
        let added = try await withThrowingTaskGroup(of: [SpendingEntry].self) { group in
            for round in 0..<8 {
                group.addTask { try await schedules[round % 2].recordDue().added }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }

        // check: 2 + 2 + 9 + 8 + 1 occurrences up to 20 January, each recorded by one run only,
        // and the ledger holds each once with its own day
        let entries = try await spending.entries(in: ledger)
        #expect(added.count == 22)
        #expect(entries.count == 22)
        #expect(Set(entries.map(\.id)) == Set(added.map(\.id)))
        #expect(Set(entries.map { "\($0.description!) \($0.date)" }).count == 22)
        #expect(entries.filter { $0.description == "Bill 1" }.map(\.date) == [day("2026-12-31"), day("2026-11-30")])
        let check = try await (second as! any LedgerTotalsCheck).checkTotals(of: ledger)
        #expect(check.kept == check.recomputed)
        for expense in try await SpendingService(store: second, clock: clock, user: alex).recurringExpenses(in: ledger) {
            #expect(expense.nextDate > day("2027-01-20"))
        }
    }
}
