import Foundation
import TallyCore
import TallyRepositories

/// Recurring expenses in words, for the activity log (S5).
struct RecurringWording {
    let details: LedgerDetails

    init(_ details: LedgerDetails) {
        self.details = details
    }

    /// "Rent, 800.00 EUR, paid by Alex, split equally, every month on the 1st".
    func describe(_ expense: RecurringExpense) -> Phrase {
        let template = expense.template
        let wording = EntryWording(details)
        let (paidBy, split) = (wording.paidBy(template.payers), wording.describe(template.split))
        guard let description = template.description else {
            return Phrase("\(money: template.amount), paid by \(paidBy), \(split), \(expense.rule.summaryPhrase)")
        }
        return Phrase("\(description), \(money: template.amount), paid by \(paidBy), \(split), \(expense.rule.summaryPhrase)")
    }

    /// What a change did, or nil when it did nothing.
    func change(from before: RecurringExpense, to after: RecurringExpense) -> ActivityNote? {
        if before.status != after.status {
            switch after.status {
            case .paused: return ActivityNote(Phrase("Paused the recurring expense \(after.titlePhrase)."))
            case .ended:
                guard let endDate = after.endDate else { return ActivityNote(Phrase("Ended the recurring expense \(after.titlePhrase).")) }
                return ActivityNote(Phrase("Ended the recurring expense \(after.titlePhrase) after \(endDate)."))
            case .active:
                guard before.status == .paused else {
                    return ActivityNote(Phrase("Restarted the recurring expense \(after.titlePhrase); next on \(after.nextDate)."))
                }
                return ActivityNote(Phrase("Resumed the recurring expense \(after.titlePhrase); next on \(after.nextDate)."))
            }
        }
        var changes = FieldChanges()
        let wording = EntryWording(details)
        let (old, new) = (before.template, after.template)
        changes.note(.money(old.amount), .money(new.amount)) { Phrase("amount \($0) → \($1)") }
        wording.notePayers(old.payers, new.payers, in: &changes)
        changes.note(wording.quoted(old.description), wording.quoted(new.description)) { Phrase("description \($0) → \($1)") }
        changes.note(wording.quoted(old.category), wording.quoted(new.category)) { Phrase("category \($0) → \($1)") }
        changes.note(wording.describe(old.split), wording.describe(new.split)) { Phrase("split \($0) → \($1)") }
        changes.note(before.rule.summaryPhrase, after.rule.summaryPhrase) { Phrase("repeats \($0) → \($1)") }
        changes.note(.verbatim(before.nextDate.description), .verbatim(after.nextDate.description)) { Phrase("next \($0) → \($1)") }
        changes.note(Self.day(before.endDate), Self.day(after.endDate)) { Phrase("end \($0) → \($1)") }
        guard !changes.phrases.isEmpty else { return nil }
        return ActivityNote(Phrase("Changed the recurring expense \(before.titlePhrase): \(changes.phrases.joined(separator: "; "))."))
    }

    /// An end date, or "none".
    private static func day(_ date: LocalDate?) -> Phrase {
        date.map { Phrase.verbatim($0.description) } ?? Phrase("none")
    }
}
