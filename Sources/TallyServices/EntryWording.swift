import Foundation
import TallyCore
import TallyRepositories

/// Expenses and payments in words, for the activity log (S5).
struct EntryWording {
    let details: LedgerDetails

    init(_ details: LedgerDetails) {
        self.details = details
    }

    func name(_ member: MemberID) -> String {
        details.members.first { $0.id == member }?.name ?? "a former member"
    }

    /// "12.50 EUR for Groceries, paid by Alex, split equally among Alex and Sam".
    func describe(_ entry: SpendingEntry) -> String {
        if let recipient = entry.recipient {
            return "a payment of \(entry.amount) from \(name(entry.payer)) to \(name(recipient))"
        }
        let what = entry.description.map { " for \($0)" } ?? ""
        return "\(entry.amount)\(what), paid by \(paidBy(entry.payers)), \(describe(entry.split))"
    }

    /// "Alex", or "Alex 30.00 and Sam 20.00" when several paid.
    func paidBy(_ payers: [PayerPart]) -> String {
        Payers.wording(payers, name: name)
    }

    /// A change of who pays, as a field and its two sides: "payer" from one member to
    /// another, "paid by" once several pay, before or after.
    func payersChange(_ old: [PayerPart], _ new: [PayerPart]) -> (field: String, before: String, after: String) {
        (old.count > 1 || new.count > 1 ? "paid by" : "payer", paidBy(old), paidBy(new))
    }

    /// "Groceries (12.50 EUR)" or "the payment of 20.00 EUR".
    func title(_ entry: SpendingEntry) -> String {
        if entry.kind == .payment { return "the payment of \(entry.amount)" }
        return entry.description.map { "\($0) (\(entry.amount))" } ?? "the expense of \(entry.amount)"
    }

    func describe(_ split: Split) -> String {
        let everyone = Set(details.members.map(\.id)) == Set(split.members)
        switch split.method {
        case .equal:
            return everyone ? "split equally" : "split equally among \(split.members.map(name).spokenList)"
        case .shares:
            return "split by shares: " + split.parts.map { "\(name($0.member)) \($0.value)" }.joined(separator: ", ")
        case .percent:
            return "split by percentages: " + split.parts.map { "\(name($0.member)) \($0.value)%" }.joined(separator: ", ")
        case .exact:
            return "split by amounts: " + split.parts.map { "\(name($0.member)) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// What differs, field by field: "amount 12.50 EUR → 13.00 EUR".
    func changes(from old: SpendingEntry, to new: SpendingEntry) -> [String] {
        var changes: [String] = []
        func note(_ field: String, _ before: String, _ after: String) {
            if before != after { changes.append("\(field) \(before) → \(after)") }
        }
        note("amount", old.amount.description, new.amount.description)
        if old.kind == .payment {
            note("from", name(old.payer), name(new.payer))
        } else {
            let payers = payersChange(old.payers, new.payers)
            note(payers.field, payers.before, payers.after)
        }
        note("date", old.date.description, new.date.description)
        note("description", quoted(old.description), quoted(new.description))
        note("category", quoted(old.category), quoted(new.category))
        if old.kind == .expense { note("split", describe(old.split), describe(new.split)) }
        return changes
    }

    /// “Groceries” in quotes, or "none".
    func quoted(_ text: String?) -> String {
        text.map { "“\($0)”" } ?? "none"
    }

}
