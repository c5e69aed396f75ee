import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension SpendingService {
    /// A member someone joins a ledger as: by id, or by name (an invite's page or `tally ledger join`).
    public enum MemberRef: Sendable, Hashable {
        case id(MemberID)
        case name(String)

        func resolve(in members: [LedgerMember]) throws -> MemberID {
            switch self {
            case .id(let id):
                return try SpendingService.member(id, in: members)
            case .name(let name):
                return try LedgerRules.member(named: name, in: members).id
            }
        }
    }

    // MARK: - Expenses and payments (S2, S4)

    /// Adds an expense (S2); a body whose `id` was sent before returns that expense instead.
    @discardableResult
    public func addExpense(to ledger: UUID, _ body: NewExpense) async throws -> (entry: SpendingEntry, created: Bool) {
        let (user, now) = (self.user, clock.now)
        let key = LedgerEntryKey(client: body.id, in: ledger)
        let named = try TypedCurrency(code: body.currency, rate: body.rate)
        let known = try await knownRates(in: ledger, for: named)
        let added = try await store.addEntry(key, to: ledger, by: user) { details, zone in
            let typed = try EntryCurrency(named, ledger: details.ledger.currency, known: known)
            let amount = try body.amount.money(in: typed.currency, what: SpendingKind.expense.subject)
            let entry = try SpendingEntry(
                id: key.id, kind: .expense, amount: amount,
                payers: try Self.payers(one: body.payer, several: body.payers, amount: amount, user: user, in: details),
                date: body.date ?? LocalDate(containing: now, in: zone),
                description: body.description, category: body.category,
                split: try body.split.split(among: details.members), createdAt: now, convertedTo: typed.conversion,
                members: details.members)
            return (entry, ActivityNote(Phrase("Added \(EntryWording(details).describe(entry))."), entryID: entry.id))
        }
        if added.created { _ = told(.added, added.entry, in: ledger) }
        return added
    }

    /// Records a payment from one member (the user's own when the body names none) to another (S4).
    @discardableResult
    public func recordPayment(in ledger: UUID, _ body: NewPayment) async throws -> (entry: SpendingEntry, created: Bool) {
        let (user, now) = (self.user, clock.now)
        let key = LedgerEntryKey(client: body.id, in: ledger)
        let named = try TypedCurrency(code: body.currency, rate: body.rate)
        let known = try await knownRates(in: ledger, for: named)
        let recorded = try await store.addEntry(key, to: ledger, by: user) { details, zone in
            let typed = try EntryCurrency(named, ledger: details.ledger.currency, known: known)
            let entry = try SpendingEntry.payment(
                id: key.id, from: try TallyError.about("from") { try Self.payer(body.from, user: user, in: details) },
                to: try TallyError.about("to") { try Self.member(body.to, in: details.members) },
                amount: try body.amount.money(in: typed.currency, what: SpendingKind.payment.subject),
                date: body.date ?? LocalDate(containing: now, in: zone), note: body.note, createdAt: now,
                convertedTo: typed.conversion, members: details.members)
            return (entry, ActivityNote(Phrase("Recorded \(EntryWording(details).describe(entry))."), entryID: entry.id))
        }
        if recorded.created { _ = told(.added, recorded.entry, in: ledger) }
        return recorded
    }

    /// Edits an expense or payment; the activity log says what changed from what (S5).
    /// `seen`, the entry's fingerprint as the person saw it, refuses the edit if it changed since.
    public func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChangeBody, seen: String? = nil) async throws -> SpendingEntry {
        let user = self.user
        let named = try TypedCurrency(code: change.currency, rate: change.rate)
        let known = try await knownRates(in: ledger, for: named)
        let changed = ChangeMark()
        let edited = try await store.changeEntry(id, in: ledger, by: user, at: clock.now) { entry, details in
            try entry.check(seen: seen, describedAs: EntryWording(details).describe(entry))
            let before = entry
            let typed = change.currency == nil && change.rate == nil
                ? EntryCurrency(entry)
                : try EntryCurrency(named, ledger: details.ledger.currency, current: entry.typedAmount.currency, known: known)
            let amount = try change.amount?.money(in: typed.currency, what: entry.kind.subject)
                ?? entry.typedAmount.decimal.money(in: typed.currency, what: entry.kind.subject)
            var split = try change.split.map { try $0.split(among: details.members) } ?? entry.split
            if entry.kind == .payment {
                guard change.split == nil else {
                    throw TallyError.invalid("A payment goes to one member; change its recipient by deleting it and recording a new one.", field: "split")
                }
                split = try Split(method: .exact, parts: [SplitPart(member: entry.recipient!, value: amount.decimal)])
            }
            entry = try SpendingEntry(
                id: entry.id, kind: entry.kind, amount: amount,
                payers: try Self.payers(after: change, of: entry, amount: amount, in: details),
                date: change.date ?? entry.date,
                description: change.description.applied(to: entry.description),
                category: change.category.applied(to: entry.category),
                split: split, createdAt: entry.createdAt, deletedAt: entry.deletedAt, convertedTo: typed.conversion,
                members: details.members)
            let changes = EntryWording(details).changes(from: before, to: entry)
            guard !changes.isEmpty else { return ActivityNote(Phrase("Saved \(EntryWording(details).describe(entry)) without changes."), entryID: id) }
            changed.mark()
            return ActivityNote(Phrase("Changed \(EntryWording(details).title(before)): \(changes.joined(separator: "; "))."), entryID: id)
        }
        return changed.isMarked ? told(.changed, edited, in: ledger) : edited
    }

    /// Moves an entry to the deleted ones, from where `restoreEntry` brings it back (S5).
    /// `seen`, the entry's fingerprint as the person saw it, refuses the delete if it changed since.
    /// A delete sent again with what was seen (a page's, offline, whose first answer was lost)
    /// finds it done and changes nothing.
    public func deleteEntry(_ id: UUID, in ledger: UUID, seen: String? = nil) async throws -> SpendingEntry {
        if let seen, let entry = try? await entry(id, in: ledger), entry.deletedAt != nil, entry.fingerprint == seen {
            return entry
        }
        let now = clock.now
        return told(.deleted, try await store.changeEntry(id, in: ledger, by: user, at: now) { entry, details in
            guard entry.deletedAt == nil else { throw TallyError.conflict("This entry is already deleted; restore it to bring it back.") }
            try entry.check(seen: seen, describedAs: EntryWording(details).describe(entry))
            entry.deletedAt = now
            return ActivityNote(Phrase("Deleted \(EntryWording(details).describe(entry))."), entryID: id)
        }, in: ledger)
    }

    public func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        told(.restored, try await store.changeEntry(id, in: ledger, by: user, at: clock.now) { entry, details in
            guard entry.deletedAt != nil else { throw TallyError.conflict("This entry is not deleted.") }
            entry.deletedAt = nil
            return ActivityNote(Phrase("Restored \(EntryWording(details).describe(entry))."), entryID: id)
        }, in: ledger)
    }

    /// The entries `listing` names, a page at a time: `after` is the last entry of the page before.
    public func entries(in ledger: UUID, _ listing: EntryListing = .current, matching filter: EntryFilter = .everything,
                        limit: Int? = nil, after: UUID? = nil) async throws -> [SpendingEntry] {
        try await store.entries(in: ledger, of: user, listing, matching: filter, limit: limit, after: after)
    }

    /// The ids of the entries `listing` names that start with `prefix`: two at most, enough to
    /// tell one from several.
    public func entryIDs(startingWith prefix: String, in ledger: UUID, _ listing: EntryListing) async throws -> [UUID] {
        try await store.entryIDs(startingWith: prefix, in: ledger, of: user, listing, limit: 2)
    }

    public func entry(_ id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        try await store.entry(id, in: ledger, of: user)
    }

    public func activity(in ledger: UUID, limit: Int = 100, offset: Int = 0) async throws -> [LedgerActivity] {
        try await store.activity(in: ledger, of: user, limit: limit, offset: offset)
    }

    // MARK: - Summary (S3, S4)

    public struct Summary: Sendable {
        public let details: LedgerDetails
        public let balances: LedgerBalances
        public let plan: [Transfer]

        public func name(_ member: MemberID) -> String { namePhrase(member).description }

        /// The member's name, or "a former member" in the reader's language.
        public func namePhrase(_ member: MemberID) -> Phrase { EntryWording(details).name(member) }

        /// "Person 2 owes Person 1 9.99 EUR.", one per transfer of the plan, or that all is settled.
        public var phrases: [Phrase] {
            guard !plan.isEmpty else { return [Phrase("Everyone is settled up.")] }
            return plan.map { Phrase("\(namePhrase($0.from)) owes \(namePhrase($0.to)) \($0.amount).") }
        }

        /// The phrases in English (the API's answer, the command line).
        public var sentences: [String] { phrases.map(\.description) }
    }

    /// Each member's paid, share and balance, and the fewest transfers that settle them, from
    /// the ledger's kept totals: the same cost at ten entries or ten thousand.
    public func summary(of ledger: UUID) async throws -> Summary {
        Self.summary(try await store.standing(of: ledger, of: user))
    }

    /// Moves on with every change to the ledger, from any instance.
    public func revision(of ledger: UUID) async throws -> Int64 {
        try await store.revision(of: ledger, of: user)
    }

    /// A ledger's page: the summary, a page of the history after `after`, and the most
    /// recently deleted entries, from one read.
    /// The spending it sums starts with the month `spentSince`.
    public func overview(of ledger: UUID, matching filter: EntryFilter = .everything, limit: Int, after: UUID? = nil,
                         deletedLimit: Int = 5, spentSince: YearMonth) async throws -> (summary: Summary, overview: LedgerOverview) {
        let overview = try await store.overview(of: ledger, of: user, matching: filter, limit: limit, after: after, deletedLimit: deletedLimit,
                                                spentSince: spentSince)
        return (Self.summary(overview.standing), overview)
    }

    /// How long a currency of one's own carries over to one's next entry (a day of a trip).
    public static let currencyCarries: TimeInterval = 12 * 3600

    /// The currency a new entry of the reader's starts in: the one their own latest entry of the
    /// last 12 hours was typed in (abroad, the next one likely is too); nil for the ledger's.
    /// Another member's entries never set it: their trip is not the reader's.
    public func startingCurrency(in ledger: UUID) async throws -> Currency? {
        let since = clock.now.addingTimeInterval(-Self.currencyCarries)
        return try await store.latestOwnEntryCurrency(in: ledger, of: user, since: since).flatMap { try? Currency(code: $0) }
    }

    static func summary(_ standing: LedgerStanding) -> Summary {
        let balances = LedgerBalances(currency: standing.details.ledger.currency,
                                      members: standing.details.members.map(\.id), totals: standing.totals)
        return Summary(details: standing.details, balances: balances, plan: balances.plan)
    }

    // MARK: -

    /// The member `id`, or the user's own member.
    static func payer(_ id: MemberID?, user: UUID, in details: LedgerDetails) throws -> MemberID {
        if let id { return try member(id, in: details.members) }
        guard let own = details.member(of: user) else { throw TallyError.invalid("Name the payer.") }
        return own.id
    }
}

/// Set inside a store's transaction, read once it returned: whether an edit changed anything.
final class ChangeMark: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = false

    func mark() { lock.withLock { marked = true } }
    var isMarked: Bool { lock.withLock { marked } }
}
