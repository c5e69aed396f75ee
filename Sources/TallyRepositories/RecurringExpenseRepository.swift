import Foundation
import TallyCore

/// The recurring expenses of ledgers (rent, subscriptions): set up, changed and deleted by
/// members, and their occurrences recorded by the schedule, once each, whichever instance or
/// command gets there first.
public protocol RecurringExpenseRepository: Sendable {
    /// Stores the recurring expense `build` makes from the ledger as it stands (given the user's
    /// time zone name) and writes its activity note, in one transaction. A ledger keeps at most
    /// `RecurringExpense.maximumPerLedger`.
    func addRecurringExpense(to ledger: UUID, by user: UUID, at: Date,
                             _ build: @escaping @Sendable (LedgerDetails, String) throws -> (expense: RecurringExpense, note: ActivityNote)) async throws -> RecurringExpense
    /// All of the ledger's recurring expenses, the soonest first (ended ones last).
    func recurringExpenses(in ledger: UUID, of user: UUID) async throws -> [RecurringExpense]
    func recurringExpense(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> RecurringExpense
    /// Applies `change` in one transaction: setting the expense to nil deletes it (the entries it
    /// recorded stay). A nil note writes nothing to the log. Returns the expense afterwards.
    func changeRecurringExpense(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                                _ change: @escaping @Sendable (inout RecurringExpense?, LedgerDetails) throws -> ActivityNote?) async throws -> RecurringExpense?

    /// The running recurring expenses of every ledger whose next occurrence falls on `latest` or
    /// before, the soonest first, at most `limit`.
    func dueRecurringExpenses(through latest: LocalDate, limit: Int) async throws -> [RecurringExpense]
    /// Records one occurrence, in one transaction, if `date` is still the expense's next one and
    /// it still runs: `record` advances the expense and makes the entry, with the id it is given,
    /// and its activity note (written in the name of whoever set it up). The id is the
    /// occurrence's own (`entryID(on:)`), or a new one when an entry has that id already: the
    /// date check makes an occurrence happen once, and no stored entry can stop it. Returns the
    /// entry when this call added it.
    func recordOccurrence(of id: UUID, in ledger: UUID, on date: LocalDate,
                          _ record: @escaping @Sendable (inout RecurringExpense, LedgerDetails, UUID) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> SpendingEntry?
}

extension RecurringExpense {
    /// The id of the entry of the occurrence on `date`: the same on every instance, so that an
    /// occurrence two instances record at once is stored once.
    public func entryID(on date: LocalDate) -> UUID {
        UUID.nameBased(namespace: id, name: "occurrence:\(date)")
    }
}

/// Refused in any store when a ledger has as many recurring expenses as it may.
package let tooManyRecurringExpenses = TallyError.conflict(
    "A ledger can have at most \(RecurringExpense.maximumPerLedger) recurring expenses: delete one that has ended first.")

package func noRecurringExpense(_ id: UUID) -> TallyError {
    TallyError.notFound("There is no recurring expense with the id \(id) in this ledger.")
}
