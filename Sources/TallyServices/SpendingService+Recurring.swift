import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

// Recurring expenses (rent, subscriptions): set up, listed, changed, paused, ended and deleted by
// the ledger's members; their occurrences are recorded by `RecurringSchedule`.

extension SpendingService {
    var schedule: RecurringSchedule { RecurringSchedule(store: store, clock: clock) }

    /// Sets up a recurring expense; an occurrence due today is recorded at once.
    /// Its first day is `startDate` (today in its time zone when absent, never earlier), its last
    /// `endDate` (none when absent); its zone `timeZone`, the user's own when absent.
    public func addRecurringExpense(to ledger: UUID, _ input: NewRecurringExpense) async throws -> RecurringExpense {
        let (user, now) = (self.user, clock.now)
        let chosenZone = try TallyError.about("timeZone") { try input.timeZone.map(UserTimeZone.validated) }
        let rule = try input.repeat.rule()
        let expense = try await store.addRecurringExpense(to: ledger, by: user, at: now) { details, userZone in
            let timeZone = chosenZone ?? userZone
            let today = LocalDate(containing: now, in: try UserTimeZone.named(timeZone))
            let start = input.startDate ?? today
            guard start >= today else {
                throw TallyError.invalid("A recurring expense starts today (\(today) in \(timeZone)) or later; add the earlier ones as expenses.",
                                         field: "startDate")
            }
            guard let first = rule.occurrence(onOrAfter: start) else {
                throw TallyError.invalid("\(rule.summaryPhraseAtStart) never comes after \(start).", field: "startDate")
            }
            if let end = input.endDate, end < first {
                throw TallyError.invalid("The end date \(end) is before the first occurrence, \(first): pick a later end, or none.", field: "endDate")
            }
            let amount = try input.amount.money(in: details.ledger.currency, what: SpendingKind.expense.subject)
            let template = try ExpenseTemplate(
                amount: amount, payers: try Self.payers(one: input.payer, several: input.payers, amount: amount, user: user, in: details),
                description: input.description, category: input.category,
                split: try input.split.split(among: details.members), members: details.members)
            let expense = RecurringExpense(id: UUID(), ledger: ledger, template: template, rule: rule, timeZone: timeZone,
                                           nextDate: first, endDate: input.endDate, pausedAt: nil, createdBy: user, createdAt: now)
            return (expense, ActivityNote(Phrase("Set up the recurring expense \(RecurringWording(details).describe(expense)), from \(first).")))
        }
        _ = try await schedule.record(expense, now: now)
        return try await store.recurringExpense(expense.id, in: ledger, of: user)
    }

    /// Adds a recurring expense as a backup describes it, made by `build` from the ledger as it
    /// stands: its rule, zone, next day, end and pause as they were. Whatever is due is recorded
    /// at once, each occurrence once.
    public func restoreRecurringExpense(into ledger: UUID, _ build: @escaping @Sendable (LedgerDetails) throws -> RecurringExpense) async throws {
        let now = clock.now
        let expense = try await store.addRecurringExpense(to: ledger, by: user, at: now) { details, _ in
            let expense = try build(details)
            let described = RecurringWording(details).describe(expense)
            guard expense.status != .ended else {
                return (expense, ActivityNote(Phrase("Restored the recurring expense \(described) from a backup.")))
            }
            return (expense, ActivityNote(Phrase("Restored the recurring expense \(described) from a backup, next on \(expense.nextDate).")))
        }
        _ = try await schedule.record(expense, now: now)
    }

    /// The ledger's recurring expenses, the soonest first and the ended last.
    public func recurringExpenses(in ledger: UUID) async throws -> [RecurringExpense] {
        try await store.recurringExpenses(in: ledger, of: user)
    }

    public func recurringExpense(_ id: UUID, in ledger: UUID) async throws -> RecurringExpense {
        try await store.recurringExpense(id, in: ledger, of: user)
    }

    /// Changes a recurring expense. Occurrences that fell while it was paused or ended are
    /// skipped when it runs again; one due today is recorded at once.
    public func changeRecurringExpense(_ id: UUID, in ledger: UUID, _ change: RecurringExpenseChange) async throws -> RecurringExpense {
        let now = clock.now
        let rule = try change.repeat?.rule()
        let changed = try await store.changeRecurringExpense(id, in: ledger, by: user, at: now) { expense, details in
            guard let before = expense else { throw noRecurringExpense(id) }
            var after = before
            let today = before.today(at: now)
            let template = before.template
            let amount = try change.amount?.money(in: details.ledger.currency, what: SpendingKind.expense.subject) ?? template.amount
            after.template = try ExpenseTemplate(
                amount: amount,
                payers: try Self.payers(one: change.payer, several: change.payers, before: template.payers, amount: amount,
                                        amountBefore: template.amount, in: details),
                description: change.description.applied(to: template.description), category: change.category.applied(to: template.category),
                split: try change.split.map { try $0.split(among: details.members) } ?? template.split, members: details.members)
            if rule != nil || change.startDate != nil {
                let start = change.startDate ?? today
                guard start >= today else {
                    throw TallyError.invalid("A recurring expense can start again today (\(today) in \(before.timeZone)) or later, not on \(start).", field: "startDate")
                }
                after.rule = rule ?? before.rule
                guard let next = after.rule.occurrence(onOrAfter: start) else {
                    throw TallyError.invalid("\(after.rule.summaryPhraseAtStart) never comes after \(start).", field: "startDate")
                }
                after.nextDate = next
            }
            if let endDate = change.endDate.change {
                if let endDate, endDate < today {
                    throw TallyError.invalid("The end date \(endDate) has passed: end it today (\(today)) at the earliest.", field: "endDate")
                }
                after.endDate = endDate
            }
            if let paused = change.paused {
                after.pausedAt = paused ? before.pausedAt ?? now : nil
            }
            Self.skipMissed(&after, was: before, today: today)
            expense = after
            return RecurringWording(details).change(from: before, to: after)
        }
        guard let changed else { throw noRecurringExpense(id) }
        _ = try await schedule.record(changed, now: now)
        return try await store.recurringExpense(id, in: ledger, of: user)
    }

    public func pauseRecurringExpense(_ id: UUID, in ledger: UUID) async throws -> RecurringExpense {
        try await changeRecurringExpense(id, in: ledger, RecurringExpenseChange(paused: true))
    }

    public func resumeRecurringExpense(_ id: UUID, in ledger: UUID) async throws -> RecurringExpense {
        try await changeRecurringExpense(id, in: ledger, RecurringExpenseChange(paused: false))
    }

    /// Ends it after today, in its own time zone: an occurrence due today is still recorded.
    public func endRecurringExpense(_ id: UUID, in ledger: UUID) async throws -> RecurringExpense {
        let expense = try await store.recurringExpense(id, in: ledger, of: user)
        return try await changeRecurringExpense(id, in: ledger, RecurringExpenseChange(endDate: .set(expense.today(at: clock.now))))
    }

    /// Deletes it; the expenses it recorded stay, as ordinary expenses.
    public func deleteRecurringExpense(_ id: UUID, in ledger: UUID) async throws {
        _ = try await store.changeRecurringExpense(id, in: ledger, by: user, at: clock.now) { expense, details in
            guard let gone = expense else { throw noRecurringExpense(id) }
            expense = nil
            return ActivityNote(Phrase("Deleted the recurring expense \(gone.titlePhrase); the expenses it recorded stay."))
        }
    }

    /// An expense that starts running again (resumed, or given a later end) takes up from
    /// today: what fell while it stood still is not recorded after the fact.
    private static func skipMissed(_ expense: inout RecurringExpense, was before: RecurringExpense, today: LocalDate) {
        guard before.status != .active, expense.status == .active, expense.nextDate < today,
              let next = expense.rule.occurrence(onOrAfter: today) else { return }
        expense.nextDate = next
    }
}

extension String {
    /// The text with its first letter in upper case: a phrase that starts a sentence.
    package var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
