import Foundation
import TallyCore
import TallyRepositories

/// Expenses and payments in words, for the activity log (S5): phrases, which the log keeps in
/// English and a page writes in its reader's language.
struct EntryWording {
    let details: LedgerDetails

    init(_ details: LedgerDetails) {
        self.details = details
    }

    /// The member's name, or "a former member".
    func name(_ member: MemberID) -> Phrase {
        details.members.first { $0.id == member }.map { Phrase.verbatim($0.name) } ?? Phrase("a former member")
    }

    /// "12.50 EUR for Groceries, paid by Alex, split equally among Alex and Sam".
    func describe(_ entry: SpendingEntry) -> Phrase {
        if let recipient = entry.recipient {
            return Phrase("a payment of \(amount(entry)) from \(name(entry.payer)) to \(name(recipient))")
        }
        guard let description = entry.description else {
            return Phrase("\(amount(entry)), paid by \(paidBy(entry.typedPayers)), \(describe(entry.split))")
        }
        return Phrase("\(amount(entry)) for \(description), paid by \(paidBy(entry.typedPayers)), \(describe(entry.split))")
    }

    /// "12.50 EUR", or "100.00 USD → 92.34 EUR" for an entry typed in another currency (in
    /// English; each amount as the reader's locale writes money on a page).
    func amount(_ entry: SpendingEntry) -> Phrase {
        guard let original = entry.original else { return .money(entry.amount) }
        return Phrase(key: "{0} → {1}", values: [.money(original.amount), .money(entry.amount)])
    }

    /// "Alex", or "Alex 30.00 and Sam 20.00" when several paid.
    func paidBy(_ payers: [PayerPart]) -> Phrase {
        guard payers.count > 1 else { return payers.first.map { name($0.member) } ?? "" }
        return Self.list(payers.map { Phrase("\(name($0.member)) \(money: $0.amount)") })
    }

    /// A change of who pays, noted as "payer" from one member to another, "paid by" once
    /// several pay, before or after.
    func notePayers(_ old: [PayerPart], _ new: [PayerPart], in changes: inout FieldChanges) {
        if old.count > 1 || new.count > 1 {
            changes.note(paidBy(old), paidBy(new)) { Phrase("paid by \($0) → \($1)") }
        } else {
            changes.note(paidBy(old), paidBy(new)) { Phrase("payer \($0) → \($1)") }
        }
    }

    /// "Groceries (12.50 EUR)" or "the payment of 20.00 EUR".
    func title(_ entry: SpendingEntry) -> Phrase {
        if entry.kind == .payment { return Phrase("the payment of \(amount(entry))") }
        return entry.description.map { Phrase("\($0) (\(amount(entry)))") } ?? Phrase("the expense of \(amount(entry))")
    }

    func describe(_ split: Split) -> Phrase {
        let everyone = Set(details.members.map(\.id)) == Set(split.members)
        switch split.method {
        case .equal:
            return everyone ? Phrase("split equally") : Phrase("split equally among \(Self.list(split.members.map(name)))")
        case .shares:
            return Phrase("split by shares: \(parts(split))")
        case .percent:
            return Phrase("split by percentages: \(parts(split))")
        case .exact:
            return Phrase("split by amounts: \(parts(split))")
        }
    }

    /// The split's parts with commas: "Alex 1, Sam 2" ("Alex 40%, Sam 60%" in percentages).
    private func parts(_ split: Split) -> Phrase {
        let parts = split.parts.map { part in
            split.method == .percent ? Phrase("\(name(part.member)) \(part.value)%") : Phrase("\(name(part.member)) \(part.value)")
        }
        return Self.joined(parts, separator: ", ")
    }

    /// What differs, field by field: "amount 12.50 EUR → 13.00 EUR".
    func changes(from old: SpendingEntry, to new: SpendingEntry) -> [Phrase] {
        var changes = FieldChanges()
        changes.note(.money(old.typedAmount), .money(new.typedAmount)) { Phrase("amount \($0) → \($1)") }
        changes.note(.verbatim(old.original?.rate.plain ?? "–"), .verbatim(new.original?.rate.plain ?? "–")) { Phrase("rate \($0) → \($1)") }
        if old.kind == .payment {
            changes.note(name(old.payer), name(new.payer)) { Phrase("from \($0) → \($1)") }
        } else {
            notePayers(old.typedPayers, new.typedPayers, in: &changes)
        }
        changes.note(.verbatim(old.date.description), .verbatim(new.date.description)) { Phrase("date \($0) → \($1)") }
        changes.note(quoted(old.description), quoted(new.description)) { Phrase("description \($0) → \($1)") }
        changes.note(quoted(old.category), quoted(new.category)) { Phrase("category \($0) → \($1)") }
        if old.kind == .expense { changes.note(describe(old.split), describe(new.split)) { Phrase("split \($0) → \($1)") } }
        return changes.phrases
    }

    /// “Groceries” in quotes, or "none".
    func quoted(_ text: String?) -> Phrase {
        text.map { Phrase("“\($0)”") } ?? Phrase("none")
    }

    /// "Alex, Sam and Kim": the items, the last after "and".
    static func list(_ items: [Phrase]) -> Phrase {
        guard let last = items.last else { return "" }
        guard items.count > 1 else { return last }
        return Phrase("\(joined(Array(items.dropLast()), separator: ", ")) and \(last)")
    }

    /// The phrases one after another with `separator` (punctuation, the same in every language)
    /// between them, each written in the reader's language.
    static func joined(_ items: [Phrase], separator: String) -> Phrase {
        Phrase(key: items.indices.map { "{\($0)}" }.joined(separator: separator), values: items.map { .phrase($0) })
    }
}

/// The changes of an edit, one phrase per field whose words differ: "amount 12.50 EUR → 13.00 EUR".
struct FieldChanges {
    private(set) var phrases: [Phrase] = []

    /// Notes the field when `before` and `after` differ (as English says them); `says` words the change.
    mutating func note(_ before: Phrase, _ after: Phrase, _ says: (Phrase, Phrase) -> Phrase) {
        if before.description != after.description { phrases.append(says(before, after)) }
    }
}

extension Array where Element == Phrase {
    /// The changes one after another, "; " between them: `"Changed …: \(changes.joined(separator: "; "))."`.
    func joined(separator: String) -> Phrase { EntryWording.joined(self, separator: separator) }
}
