import Foundation
import TallyAPI
import TallyCore

/// The recurring expenses' text output, and how the command line names one.
enum RecurringText {
    static func list(_ expenses: [RecurringExpenseJSON], _ ledger: LedgerJSON) -> String {
        guard !expenses.isEmpty else {
            return "\(ledger.name) has no recurring expenses: set one up with `tally recurring add 800 Rent --every month --on 1`."
        }
        return expenses.map { "\($0.id.uuidString.prefix(8).lowercased())  \(line($0, ledger))" }.joined(separator: "\n")
    }

    /// "Rent 800.00 EUR every month on the 1st, paid by Alex; next on 2026-12-01" (or paused, or ended).
    static func line(_ expense: RecurringExpenseJSON, _ ledger: LedgerJSON) -> String {
        let state = switch expense.status {
        case .active: "next on \(expense.nextDate)"
        case .paused: "paused (next would be \(expense.nextDate))"
        case .ended: "ended\(expense.endDate.map { " after \($0)" } ?? "")"
        }
        let end = expense.status != .ended ? expense.endDate.map { ", until \($0)" } ?? "" : ""
        return "\(title(expense)) \(expense.amount) \(expense.currency) \(expense.schedule), paid by \(SpendingText.paidBy(expense.payers, ledger)); \(state)\(end)"
    }

    static func title(_ expense: RecurringExpenseJSON) -> String { expense.description ?? "expense" }

    /// The expense whose description is `reference` (any case) or whose id starts with it.
    static func find(_ reference: String, in expenses: [RecurringExpenseJSON], _ ledger: LedgerJSON) throws -> RecurringExpenseJSON {
        let wanted = reference.trimmingCharacters(in: .whitespaces)
        let byName = expenses.filter { ($0.description ?? "").caseInsensitiveCompare(wanted) == .orderedSame }
        let byID = wanted.isEmpty ? [] : expenses.filter { $0.id.uuidString.lowercased().hasPrefix(wanted.lowercased()) }
        if byName.count == 1 { return byName[0] }
        if byName.isEmpty, byID.count == 1 { return byID[0] }
        if byName.count > 1 || byID.count > 1 {
            throw TallyError.invalid("More than one recurring expense matches \"\(wanted)\": give the first characters of its id (tally recurring list shows them).")
        }
        throw TallyError.notFound("No recurring expense in \(ledger.name) is called \"\(wanted)\" or has an id starting with it: `tally recurring list` shows them.")
    }

    /// The rule `--every` and `--on` describe.
    static func rule(_ frequency: RecurrenceRule.Frequency, on text: String) throws -> RecurrenceRule {
        let typed = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch frequency {
        case .week:
            let names = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
            let weekday = Int(typed) ?? names.firstIndex { $0 == typed || (typed.count >= 3 && $0.hasPrefix(typed)) }.map { $0 + 1 }
            guard let weekday else { throw TallyError.invalid("--on \(UserText.quoted(text)) is not a weekday: write monday … sunday, or 1 to 7.") }
            return try RecurrenceRule(every: .week, weekday: weekday)
        case .month:
            guard let day = Int(typed) else { throw TallyError.invalid("--on \(UserText.quoted(text)) is not a day of the month: write 1 to 31.") }
            return try RecurrenceRule(every: .month, day: day)
        case .year:
            let parts = typed.split(separator: "-").map { Int($0) }
            guard parts.count == 2, let month = parts[0], let day = parts[1] else {
                throw TallyError.invalid("--on \(UserText.quoted(text)) is not a day of the year: write MM-DD, such as 02-29.")
            }
            return try RecurrenceRule(every: .year, day: day, month: month)
        }
    }
}
