import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// What bringing another app's ledger in does, whichever app it is (IHateMoney, Splitwise):
/// every item is checked against the ledger as it will be before anything is stored, so an item
/// the rules refuse leaves the ledgers as they were; the items then go in `batchSize` at a time,
/// so that a long export never holds other people's writes for long, and importing it again
/// finishes an import that stopped halfway, adding nothing twice (each item carries an import
/// key made from its content).
struct LedgerImport<Item: Sendable>: Sendable {
    let spending: SpendingService
    let batchSize: Int
    /// The item's entry in the ledger the import finds (or, to check, will make), whose members
    /// are found by name through the `MemberNames` given, made at the time given.
    let entry: @Sendable (Item, LedgerDetails, MemberNames, Date) throws -> SpendingEntry
    /// A refusal of the item, naming it.
    let refusal: @Sendable (Item, TallyError) -> TallyError

    /// The items with their import keys: `prefix:content#n`, n counting the items of the same
    /// content, so that two alike both come in, and once each.
    static func keyed(_ items: [Item], prefix: String, content: (Item) -> String) -> [(item: Item, key: String)] {
        var seen: [String: Int] = [:]
        return items.map { item in
            let key = content(item)
            seen[key, default: 0] += 1
            return (item: item, key: "\(prefix):\(key)#\(seen[key]!)")
        }
    }

    /// Stores `items` into `ledger` (its details `existing`), or into a new ledger called `name`
    /// when it is nil, adding the members `names` it lacks. `note` says what a batch of `n`
    /// brought, in the ledger's activity.
    func run(_ items: [(item: Item, key: String)], into ledger: UUID?, existing: LedgerDetails?, name: String, currency: Currency,
             names: [String], skipped: Int = 0, note: (Int) -> Phrase) async throws -> IHateMoneyImportReport {
        let (user, now) = (spending.user, spending.clock.now)
        _ = try entries(items[...], in: Self.preview(of: existing, name: name, currency: currency, names: names, user: user, now: now),
                        createdAt: now)
        var target = ledger
        var added = 0
        var newMembers: [String] = []
        for run in items.isEmpty ? [items[...]] : DayBatches.runs(items, size: batchSize) {
            let stored = try await spending.importEntries(into: target, name: name, currency: currency, memberNames: names,
                                                          note: note(run.count)) { details in
                try entries(run, in: details, createdAt: now)
            }
            target = stored.details.ledger.id
            added += stored.added
            newMembers += stored.newMembers
        }
        // The loop runs at least once, so the ledger is the one it wrote to.
        return IHateMoneyImportReport(ledger: target!, added: added, alreadyThere: items.count - added, newMembers: newMembers,
                                      skipped: skipped)
    }

    /// The entries of some items, each with its import key; a refusal names its item.
    private func entries(_ items: ArraySlice<(item: Item, key: String)>, in details: LedgerDetails, createdAt: Date) throws -> [ImportedEntry] {
        let members = MemberNames(details.members)
        return try items.map { item in
            do {
                return ImportedEntry(entry: try entry(item.item, details, members, createdAt), importKey: item.key)
            } catch let error as TallyError {
                throw refusal(item.item, error)
            }
        }
    }

    /// The ledger as the import will make it, to check every item against before storing any:
    /// its members and, for those still to come, ids of their own.
    private static func preview(of existing: LedgerDetails?, name: String, currency: Currency, names: [String], user: UUID,
                                now: Date) -> LedgerDetails {
        var members = existing?.members ?? []
        var keys = members.map { UserText.NameKey($0.name) }
        var next = (members.map(\.id).max() ?? 0) + 1
        for name in names {
            let key = UserText.NameKey(name)
            guard !keys.contains(where: { $0.isSame(as: key) }) else { continue }
            members.append(LedgerMember(id: next, name: name.trimmingCharacters(in: .whitespaces), userID: existing == nil && members.isEmpty ? user : nil))
            keys.append(key)
            next += 1
        }
        return LedgerDetails(ledger: existing?.ledger ?? Ledger(id: UUID(), name: name, currency: currency, createdAt: now),
                             members: members, ownerID: nil, invite: nil, hasEntries: false)
    }
}

/// The currencies of an import of another app's ledger.
enum ImportCurrency {
    /// The ledger's currency when the import does not take it from the export: the one asked
    /// for, or the existing ledger's (a ledger keeps its currency, so asking for another is
    /// refused). Nil when the export is to say.
    static func chosen(_ asked: String?, existing: LedgerDetails?) throws -> Currency? {
        let asked = try asked.map { try Currency(code: $0) }
        guard let kept = existing?.ledger.currency else { return asked }
        if let asked, asked != kept {
            throw TallyError.invalid("The ledger keeps \(kept.code), not \(asked.code): leave the currency out to import into it.", field: "currency")
        }
        return kept
    }

    /// Each of `currencies` once, in the order they first come.
    static func inOrder(_ currencies: [Currency]) -> [Currency] {
        var seen: Set<Currency> = []
        return currencies.filter { seen.insert($0).inserted }
    }
}
