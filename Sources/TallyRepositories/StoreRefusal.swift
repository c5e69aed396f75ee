import Foundation
import TallyCore

/// The sentences both stores refuse with, and the cross-row rules they both apply, written once:
/// the same request gets the same refusal on SQLite and on PostgreSQL.
package enum StoreRefusal {
    package static func noLedger(_ id: UUID) -> TallyError {
        .notFound("There is no ledger with the id \(id) that you are a member of.")
    }

    package static func noLedgerEntry(_ id: UUID) -> TallyError {
        .notFound("There is no expense or payment with the id \(id) in this ledger.")
    }

    package static func noMember(_ id: MemberID) -> TallyError {
        .notFound("This ledger has no member with the id \(id).")
    }

    package static func noCursor(_ after: UUID) -> TallyError {
        .notFound("The cursor \(after) is not an entry of this ledger: start again from the first page.")
    }

    package static func noDrink(_ id: UUID) -> TallyError {
        .notFound("There is no drink with the id \(id).")
    }

    package static func noEntry(_ id: UUID) -> TallyError {
        .notFound("There is no entry with the id \(id).")
    }

    package static let noSuchKind = TallyError.notFound("No such drink kind.")
    package static let noSuchUser = TallyError.notFound("No such user.")

    package static func noAccount(_ id: UUID) -> TallyError {
        .notFound("There is no account with the id \(id).")
    }

    package static func noInvite(_ id: String) -> TallyError {
        .notFound("There is no invite with the id \(id).")
    }

    package static func noToken(_ id: UUID) -> TallyError {
        .notFound("There is no token with the id \(id).")
    }

    package static func userNameTaken(_ name: String) -> TallyError {
        .conflict("There is already a user named \(name).")
    }

    package static func kindNameTaken(_ name: String) -> TallyError {
        .conflict("There is already a drink kind named \(name).")
    }

    /// A client's id for a new entry (a drink, an expense) that another entry has.
    package static func idTaken(_ id: UUID) -> TallyError {
        .conflict("The id \(id) is already used by another entry; leave it out to get a new one.")
    }

    package static func tooManyDevices(_ others: Int) -> TallyError {
        .conflict(Phrase(one: "Notifications are on for \(others) device of yours, the most Tally sends to; turn it off first.",
                         other: "Notifications are on for \(others) devices of yours, the most Tally sends to; turn them off on one first."))
    }

    /// A constraint of the database refused a change, with the database's own words.
    package static func clash(_ message: Phrase) -> TallyError {
        .conflict("That change clashes with what is stored: \(message).")
    }

    /// Refuses to remove `gone` from a ledger while anything refers to them: their expenses and
    /// payments (deleted ones included) first, then the recurring expenses they pay for or share.
    package static func checkRemoval(of gone: LedgerMember, hasEntries: Bool, recurring: [RecurringExpense]) throws {
        if hasEntries {
            throw TallyError.conflict("\(gone.name) has expenses or payments in this ledger (deleted ones included), so they stay a member; rename them instead.")
        }
        if let expense = recurring.first(where: { $0.involves(gone.id) }) {
            throw TallyError.conflict("\(gone.name) pays for or shares the recurring expense \(expense.titlePhrase): change it or delete it first, or rename \(gone.name) instead.")
        }
    }
}
