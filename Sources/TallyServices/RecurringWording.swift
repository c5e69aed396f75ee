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
    func describe(_ expense: RecurringExpense) -> String {
        let template = expense.template
        let wording = EntryWording(details)
        return "\(template.description.map { "\($0), " } ?? "")\(template.amount), paid by \(wording.paidBy(template.payers)), "
            + "\(wording.describe(template.split)), \(expense.rule.summary)"
    }

    /// What a change did, or nil when it did nothing.
    func change(from before: RecurringExpense, to after: RecurringExpense) -> ActivityNote? {
        if before.status != after.status {
            switch after.status {
            case .paused: return ActivityNote("Paused the recurring expense \(after.title).")
            case .ended: return ActivityNote("Ended the recurring expense \(after.title)\(after.endDate.map { " after \($0)" } ?? "").")
            case .active:
                return ActivityNote("\(before.status == .paused ? "Resumed" : "Restarted") the recurring expense \(after.title); next on \(after.nextDate).")
            }
        }
        var changes: [String] = []
        func note(_ field: String, _ old: String, _ new: String) {
            if old != new { changes.append("\(field) \(old) → \(new)") }
        }
        let wording = EntryWording(details)
        let (old, new) = (before.template, after.template)
        note("amount", old.amount.description, new.amount.description)
        let payers = wording.payersChange(old.payers, new.payers)
        note(payers.field, payers.before, payers.after)
        note("description", wording.quoted(old.description), wording.quoted(new.description))
        note("category", wording.quoted(old.category), wording.quoted(new.category))
        note("split", wording.describe(old.split), wording.describe(new.split))
        note("repeats", before.rule.summary, after.rule.summary)
        note("next", before.nextDate.description, after.nextDate.description)
        note("end", before.endDate?.description ?? "none", after.endDate?.description ?? "none")
        guard !changes.isEmpty else { return nil }
        return ActivityNote("Changed the recurring expense \(before.title): \(changes.joined(separator: "; ")).")
    }
}
