import Foundation
import TallyCore
import TallyRepositories

/// What a member is told of another's change to a shared ledger: the ledger's name over who did
/// what and for how much ("Ana added Groceries at Lidl — €42.80, your share €21.40"). Phrases,
/// written in the reader's language by the caller, with amounts written by its `money`.
public struct ChangeNotice: Sendable {
    public var title: Phrase
    public var body: Phrase

    /// The first change of a burst, told to `reader`.
    public init(_ change: EntryChange, in details: LedgerDetails, to reader: MemberID, money: (Money) -> String) {
        let wording = EntryWording(details)
        let author = Self.author(change.author, in: details)
        let entry = change.entry
        let amount = Phrase.verbatim(entry.original.map { "\(money($0.amount)) → \(money(entry.amount))" } ?? money(entry.amount))
        title = .verbatim(details.ledger.name)
        if let recipient = entry.recipient {
            let (from, to) = (wording.name(entry.payer), wording.name(recipient))
            body = switch change.kind {
            case .added: Phrase("\(author) recorded a payment of \(amount) from \(from) to \(to)")
            case .changed: Phrase("\(author) changed the payment of \(amount) from \(from) to \(to)")
            case .deleted: Phrase("\(author) deleted the payment of \(amount) from \(from) to \(to)")
            case .restored: Phrase("\(author) restored the payment of \(amount) from \(from) to \(to)")
            }
            return
        }
        let what = entry.description.map(Phrase.verbatim) ?? Phrase("an expense")
        // The reader's share, if they have one; a deleted expense is no one's share any more.
        let share = change.kind == .deleted ? nil : (try? entry.shares)?.first { $0.member == reader }?.share
        let yours = share.flatMap { $0.minorUnits > 0 ? Phrase.verbatim(money($0)) : nil }
        body = switch (change.kind, yours) {
        case (.added, nil): Phrase("\(author) added \(what) — \(amount)")
        case (.added, let yours?): Phrase("\(author) added \(what) — \(amount), your share \(yours)")
        case (.changed, nil): Phrase("\(author) changed \(what) — now \(amount)")
        case (.changed, let yours?): Phrase("\(author) changed \(what) — now \(amount), your share \(yours)")
        case (.deleted, _): Phrase("\(author) deleted \(what) — \(amount)")
        case (.restored, nil): Phrase("\(author) restored \(what) — \(amount)")
        case (.restored, let yours?): Phrase("\(author) restored \(what) — \(amount), your share \(yours)")
        }
    }

    /// The rest of a burst, told when it ends: "Ana added 6 more expenses, €21.00".
    public init(_ burst: EndedBurst, in details: LedgerDetails, money: (Money) -> String) {
        let author = Self.author(burst.author, in: details)
        title = .verbatim(details.ledger.name)
        let count = burst.more
        if burst.allAdded {
            let total = Phrase.verbatim(money(Money(minorUnits: burst.added, currency: details.ledger.currency)))
            body = Phrase(one: "\(author) added \(count) more expense, \(total)", other: "\(author) added \(count) more expenses, \(total)")
        } else {
            body = Phrase(one: "\(author) made \(count) more change", other: "\(author) made \(count) more changes")
        }
    }

    /// The author as the ledger knows them: their member's name.
    static func author(_ user: UUID, in details: LedgerDetails) -> Phrase {
        details.members.first { $0.userID == user }.map { .verbatim($0.name) } ?? Phrase("A former member")
    }
}
