import Foundation
import TallyCore
import TallyRepositories

/// Records the occurrences of recurring expenses whose day has come, in the time zone of each:
/// what `tally serve` runs every minute, and the command line before it reads a ledger. Each
/// occurrence is one transaction that adds its entry (under an id made from the expense and the
/// day) and moves the expense on, so that it is recorded once, whoever runs the schedule and
/// however many run it at once; occurrences missed while nobody ran it are all recorded, each
/// on its own day.
public struct RecurringSchedule: Sendable {
    public let store: any RecurringExpenseRepository
    public let clock: any WallClock

    public init(store: any RecurringExpenseRepository, clock: any WallClock) {
        self.store = store
        self.clock = clock
    }

    /// What a run did: the entries it added, and the expenses it could not record, with why.
    public struct Outcome: Sendable {
        public var added: [SpendingEntry] = []
        public var failed: [(expense: UUID, error: any Error)] = []
    }

    /// How many recurring expenses one run looks at; the next run takes the rest.
    public static let batch = 200

    /// Records every occurrence due now, in every ledger.
    public func recordDue() async throws -> Outcome {
        let now = clock.now
        // No zone's today is later than the day at UTC+14: what may be due somewhere.
        let latest = LocalDate(containing: now.addingTimeInterval(14 * 3600), in: TimeZone(identifier: "UTC")!)
        var outcome = Outcome()
        for expense in try await store.dueRecurringExpenses(through: latest, limit: Self.batch) {
            do {
                outcome.added += try await record(expense, now: now)
            } catch {
                outcome.failed.append((expense.id, error))
            }
        }
        return outcome
    }

    /// Records the occurrences of `expense` due at `now`, oldest first; returns the entries this
    /// call added (none for those another instance recorded first).
    public func record(_ expense: RecurringExpense, now: Date) async throws -> [SpendingEntry] {
        var expense = expense
        var added: [SpendingEntry] = []
        while let date = expense.dueOccurrence(at: now) {
            let entry = try await store.recordOccurrence(of: expense.id, in: expense.ledger, on: date) { stored, details, id in
                stored.advance(past: date)
                let entry = try stored.template.entry(id: id, on: date, createdAt: now, members: details.members)
                let wording = EntryWording(details)
                return (entry, ActivityNote(Phrase("Added \(wording.describe(entry)), on its schedule (\(stored.rule.summaryPhrase))."), entryID: entry.id))
            }
            if let entry { added.append(entry) }
            expense.advance(past: date)
        }
        return added
    }
}
