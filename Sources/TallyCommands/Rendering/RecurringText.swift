import Foundation
import TallyAPI
import TallyCore
import TallyLanguages

/// The recurring expenses' text output, in the terminal's language, and how the command line names one.
enum RecurringText {
    static func list(_ expenses: [RecurringExpenseJSON], _ ledger: LedgerJSON) -> String {
        guard !expenses.isEmpty else {
            return t("\(ledger.name) has no recurring expenses: set one up with `tally recurring add 800 Rent --every month --on 1`.")
        }
        return expenses.map { "\($0.id.uuidString.prefix(8).lowercased())  \(line($0, ledger))" }.joined(separator: "\n")
    }

    /// "Rent 800.00 EUR every month on the 1st, paid by Alex; next on 2026-12-01" (or paused, or ended).
    static func line(_ expense: RecurringExpenseJSON, _ ledger: LedgerJSON) -> String {
        let next = Said.day(expense.nextDate)
        var state = switch expense.status {
        case .active: Phrase("next on \(next)")
        case .paused: Phrase("paused (next would be \(next))")
        case .ended: expense.endDate.map { Phrase("ended after \(Said.day($0))") } ?? Phrase("ended")
        }
        if expense.status != .ended, let end = expense.endDate { state = Phrase("\(state), until \(Said.day(end))") }
        let amount = "\(expense.amount) \(expense.currency)"
        // The rule in the terminal's language; the server's English words for a rule this tally does not know.
        let schedule = (try? expense.repeat.rule()).map { Written.current.say($0.summaryPhrase) } ?? expense.schedule
        let payers = SpendingText.paidBy(expense.payers, ledger)
        return t("\(title(expense)) \(amount) \(schedule), paid by \(payers); \(state)")
    }

    static func title(_ expense: RecurringExpenseJSON) -> String { expense.description ?? t("expense") }

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
