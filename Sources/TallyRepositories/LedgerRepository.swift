import Foundation
import TallyCore

/// A ledger as its members see it.
public struct LedgerDetails: Equatable, Sendable {
    public var ledger: Ledger
    /// In the order they joined.
    public var members: [LedgerMember]
    /// The member marked as the owner; `owner` is who counts as the owner.
    public var ownerID: MemberID?
    /// The invite, if one was opened and not revoked (it may have expired).
    public var invite: LedgerInvite?
    /// The code of an invite opened by this very change: never stored, so shown only once.
    public var newInviteCode: String?
    /// Whether any expense or payment was ever recorded (which fixes the currency).
    public var hasEntries: Bool

    public init(ledger: Ledger, members: [LedgerMember], ownerID: MemberID?, invite: LedgerInvite?, hasEntries: Bool) {
        self.ledger = ledger
        self.members = members
        self.ownerID = ownerID
        self.invite = invite
        self.hasEntries = hasEntries
    }

    /// The member the user acts as.
    public func member(of user: UUID) -> LedgerMember? { members.first { $0.userID == user } }

    /// The member who looks after the ledger (S1).
    public var owner: LedgerMember? { LedgerOwnership.owner(marked: ownerID, among: members) }

    /// Refuses `user` unless they own the ledger; `action` as in "Only Ada, who owns this ledger, can remove members."
    public func requireOwner(_ user: UUID, to action: Phrase) throws {
        try LedgerOwnership.requireOwner(owner, user: user, to: action)
    }
}

/// An open invite to a ledger: only the hash of its code is kept (S1).
public struct LedgerInvite: Equatable, Sendable {
    public var codeHash: Data
    public var createdAt: Date
    public var expiresAt: Date
    /// How many more people may join with it.
    public var usesLeft: Int

    public init(codeHash: Data, createdAt: Date, expiresAt: Date, usesLeft: Int) {
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usesLeft = usesLeft
    }

    public func isValid(at now: Date) -> Bool { now < expiresAt && usesLeft > 0 }
}

/// One line of a ledger's activity log (S5): who did what, when.
public struct LedgerActivity: Equatable, Sendable {
    public var at: Date
    /// The name of the user who did it; nil once that account is gone.
    public var actor: String?
    public var entryID: UUID?
    /// What happened, in English, as it was logged.
    public var text: String
    /// The same as a phrase, to write in the reader's language; nil for what was logged before
    /// the log kept phrases.
    public var phrase: Phrase?

    public init(at: Date, actor: String?, entryID: UUID?, text: String, phrase: Phrase? = nil) {
        self.at = at
        self.actor = actor
        self.entryID = entryID
        self.text = text
        self.phrase = phrase
    }
}

/// What a change writes to the activity log, in the same transaction as the change.
public struct ActivityNote: Sendable {
    /// What happened, in English until it is written in the reader's language.
    public var phrase: Phrase
    public var entryID: UUID?
    /// The sentence in English, as the log stores it.
    public var text: String { phrase.description }

    public init(_ phrase: Phrase, entryID: UUID? = nil) {
        self.phrase = phrase
        self.entryID = entryID
    }
}

/// Who joins a ledger through its invite: picked from the ledger as it stands inside the
/// joining transaction (a member nobody is linked to, or a new one with id 0), with the line
/// the ledger's activity gets. Throwing refuses the join and everything in its transaction.
public typealias MemberChooser = @Sendable (LedgerDetails) throws -> (member: LedgerMember, note: ActivityNote)

/// Ledgers, their members, expenses and payments (S1–S5).
///
/// Every call names the user who asks, and a ledger the user is not a member of is not found
/// (S1): the check runs inside the call's transaction.
public protocol LedgerRepository: Sendable {
    /// Stores a new ledger with its members; `user` becomes the member at `linkedMember`, and its owner.
    func createLedger(_ ledger: Ledger, memberNames: [String], user: UUID, linkedMember: Int) async throws -> LedgerDetails
    /// The ledgers `user` is a member of, newest first.
    func ledgers(of user: UUID) async throws -> [LedgerDetails]
    func ledger(_ id: UUID, of user: UUID) async throws -> LedgerDetails

    /// Applies `change` to the ledger, its owner, invite and members in one transaction: members
    /// whose id is 0 are added, members missing from the result are removed (only when nothing
    /// refers to them), the rest are updated.
    func changeLedger(_ id: UUID, of user: UUID, at: Date,
                      _ change: @escaping @Sendable (inout LedgerDetails) throws -> [ActivityNote]) async throws -> LedgerDetails
    /// The ledger an invite opens, for the person invited to see before joining; nil when no
    /// valid invite has the code whose hash is `codeHash` (never made, revoked, replaced,
    /// expired or used up).
    func invitedLedger(codeHash: Data, at: Date) async throws -> LedgerDetails?
    /// Links `user` to a member of the ledger whose valid invite has `codeHash`, using up one of
    /// its uses: the member `chooser` picks from the ledger as it stands, inside the
    /// transaction. A user who is already a member gets the ledger and uses nothing up.
    func join(codeHash: Data, user: UUID, at: Date, _ chooser: @escaping MemberChooser) async throws -> LedgerDetails

    /// Adds the entry `build` makes from the ledger as it stands inside the transaction, so that
    /// its currency and members are the ones it is written with; `build` also gets the user's
    /// time zone, for the day of an entry that names none; the entry has `key.id`. A key whose
    /// entry is stored in this ledger already returns that entry, never a second one, once the
    /// body passed `build` (a body the rules refuse is refused either way); another ledger's
    /// entries are never looked at. One transaction in all.
    func addEntry(_ key: LedgerEntryKey, to ledger: UUID, by user: UUID,
                  _ build: @escaping @Sendable (LedgerDetails, TimeZone) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> (entry: SpendingEntry, created: Bool)
    /// An import, all or nothing: creates the ledger (`.new`) or uses one of the user's, adds
    /// `memberNames`, then the entries `build` makes from the ledger with those members. Entries
    /// whose import key (or id) is already stored are left out. Returns the ledger and how many
    /// entries were added.
    func importEntries(into target: ImportTarget, by user: UUID, at: Date, memberNames: [String], note: ActivityNote,
                       _ build: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int)
    /// Applies `change` to an entry in one transaction; it may soft-delete or restore it.
    func changeEntry(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                     _ change: @escaping @Sendable (inout SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry
    func entry(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> SpendingEntry
    /// A page of the entries `listing` names, after the entry `after` (the last of the page
    /// before; the first page when nil). The cost depends on the page, not on the ledger.
    func entries(in ledger: UUID, of user: UUID, _ listing: EntryListing, matching filter: EntryFilter, limit: Int?, after: UUID?) async throws -> [SpendingEntry]
    /// The ids of the entries `listing` names that start with `prefix` (hex digits, dashes left
    /// out), at most `limit`: what finds an entry from the first characters of its id.
    func entryIDs(startingWith prefix: String, in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int) async throws -> [UUID]
    /// The ledger and its members' totals (S3), kept up to date with every change.
    func standing(of ledger: UUID, of user: UUID) async throws -> LedgerStanding
    /// What a ledger's page shows, from one read: the standing, the first `limit` entries after
    /// `after` that match `filter`, the `deletedLimit` most recently deleted entries with how many
    /// there are, and what was spent since `spentSince` began: all of it costing what the page
    /// and the months hold, not what the whole ledger does.
    func overview(of ledger: UUID, of user: UUID, matching filter: EntryFilter, limit: Int, after: UUID?, deletedLimit: Int,
                  spentSince: YearMonth) async throws -> LedgerOverview
    /// What the entries typed in other currencies than the ledger's came to, by currency, with
    /// the rate each was last converted at.
    func foreignSpending(in ledger: UUID, of user: UUID) async throws -> [ForeignSpending]
    /// The reference rates the server last took from its source, nil until it took any.
    func referenceRates() async throws -> ReferenceRates?
    /// Keeps `rates` in place of the ones before (every instance may: the last write wins).
    func keepReferenceRates(_ rates: ReferenceRates) async throws
    /// A number that every change to the ledger moves on, whichever instance made it (its
    /// activity log's latest line): what tells an open page that the ledger changed.
    func revision(of ledger: UUID, of user: UUID) async throws -> Int64
    /// Newest first, a page at a time.
    func activity(in ledger: UUID, of user: UUID, limit: Int, offset: Int) async throws -> [LedgerActivity]
    /// The code of the currency that the newest entry `user` added to the ledger at or after
    /// `since` was typed in (the activity log tells who added it); nil when they added none.
    func latestOwnEntryCurrency(in ledger: UUID, of user: UUID, since: Date) async throws -> String?
}

/// Which of a listing's entries a search keeps: all of its conditions hold.
public struct EntryFilter: Sendable, Equatable {
    /// Found in the description, whatever the case and accents (`UserText.searchKey`).
    public var words: String?
    /// The words as they were typed, trimmed: what a client sends a server, which folds them.
    public var typedWords: String?
    /// A member who paid, sent, received or has a share (of another ledger: none).
    public var member: MemberID?
    /// The category, as it was written.
    public var category: String?
    /// The first and last dates, both included (the wrong way round: none).
    public var from: LocalDate?
    public var through: LocalDate?

    /// Words longer than `maximumWords` are refused.
    public init(words: String? = nil, member: MemberID? = nil, category: String? = nil, from: LocalDate? = nil, through: LocalDate? = nil) throws {
        guard (words ?? "").unicodeScalars.count <= Self.maximumWords else {
            throw TallyError.invalid("A search can be at most \(Self.maximumWords) characters long.")
        }
        let words = words?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        typedWords = words.isEmpty ? nil : words
        self.words = words.isEmpty ? nil : UserText.searchKey(words)
        self.member = member
        self.category = category
        self.from = from
        self.through = through
    }

    private init() {}

    public static let everything = EntryFilter()
    public var isEverything: Bool { self == .everything }

    /// The most a search's words may be, in Unicode scalars.
    public static let maximumWords = 100
}

/// Which of a ledger's entries a listing holds.
public enum EntryListing: Sendable {
    /// The entries that count, newest first: by date, then by when they were recorded.
    case current
    /// The deleted entries, most recently deleted first.
    case deleted
    /// Every entry, deleted ones too, in the order of `current`.
    case all
}

/// A ledger with its members' running totals (S3).
public struct LedgerStanding: Sendable {
    public var details: LedgerDetails
    public var totals: LedgerTotals

    public init(details: LedgerDetails, totals: LedgerTotals) {
        self.details = details
        self.totals = totals
    }
}

/// What a ledger's page shows, read at once.
public struct LedgerOverview: Sendable {
    public var standing: LedgerStanding
    /// One page of the entries that count, newest first.
    public var entries: [SpendingEntry]
    /// Whether older entries follow the page.
    public var hasMore: Bool
    /// The most recently deleted entries, most recent first.
    public var deleted: [SpendingEntry]
    /// How many entries are deleted in all.
    public var deletedCount: Int
    /// The expenses that count (payments are no spending), summed by month and category.
    public var spent: [MonthlySpending]
    /// The ledger's revision when this was read (see `revision(of:of:)`).
    public var revision: Int64
    /// The other currencies its entries that count were typed in, by code.
    public var currencies: [ForeignSpending]

    public init(standing: LedgerStanding, entries: [SpendingEntry], hasMore: Bool, deleted: [SpendingEntry], deletedCount: Int,
                spent: [MonthlySpending], revision: Int64, currencies: [ForeignSpending] = []) {
        self.standing = standing
        self.entries = entries
        self.hasMore = hasMore
        self.deleted = deleted
        self.deletedCount = deletedCount
        self.spent = spent
        self.revision = revision
        self.currencies = currencies
    }
}

extension ReferenceRates {
    /// The server setting the stores keep them in, as JSON.
    package static let settingName = "referenceRates"

    package static func stored(_ json: String?) -> ReferenceRates? {
        json.flatMap { try? JSONDecoder().decode(ReferenceRates.self, from: Data($0.utf8)) }
    }

    package var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// What a ledger's entries typed in one other currency came to: its expenses in that currency
/// and in the ledger's, and the rate its latest entry was converted at (what a new one starts from).
public struct ForeignSpending: Sendable, Equatable {
    public var spent: Money
    public var inLedger: Money
    public var lastRate: ExchangeRate

    public init(spent: Money, inLedger: Money, lastRate: ExchangeRate) {
        self.spent = spent
        self.inLedger = inLedger
        self.lastRate = lastRate
    }

    /// From the stored columns: the currency's code, its expenses' sums in minor units, the rate as text.
    package init(code: String, spent: Int64, inLedger: Int64, lastRate: String, ledger: Currency) throws {
        let currency = try Currency(code: code)
        self.init(spent: Money(minorUnits: spent, currency: currency), inLedger: Money(minorUnits: inLedger, currency: ledger),
                  lastRate: try ExchangeRate(parsing: lastRate))
    }

    /// The statement both stores read them with: `placeholder` is the ledger's (`?1`, `$1`),
    /// `integer` what makes a sum an integer again ("::bigint" in PostgreSQL), `sequence` the
    /// column that orders entries recorded at the same moment (`rowid`, `seq`).
    package static func sql(ledger placeholder: String, integer: String = "", sequence: String) -> String {
        """
        SELECT originalCurrency,
            sum(CASE WHEN kind = 'expense' THEN originalAmount ELSE 0 END)\(integer),
            sum(CASE WHEN kind = 'expense' THEN amount ELSE 0 END)\(integer),
            (SELECT latest.rate FROM spendingEntry AS latest
             WHERE latest.ledgerId = \(placeholder) AND latest.originalCurrency = spendingEntry.originalCurrency
                AND latest.deletedAt IS NULL
             ORDER BY latest.createdAt DESC, latest.\(sequence) DESC LIMIT 1)
        FROM spendingEntry WHERE ledgerId = \(placeholder) AND originalCurrency IS NOT NULL AND deletedAt IS NULL
        GROUP BY originalCurrency ORDER BY originalCurrency
        """
    }
}

extension LedgerOverview {
    /// The categories of what was spent in the months `spent` covers, each once, in order.
    public var recentCategories: [String] { Set(spent.compactMap(\.category)).sorted() }
}

/// What a ledger's expenses of one category came to in one month, in minor units.
public struct MonthlySpending: Sendable, Equatable {
    public var month: YearMonth
    /// Nil for the expenses without one.
    public var category: String?
    public var amount: Int64

    public init(month: YearMonth, category: String?, amount: Int64) {
        self.month = month
        self.category = category
        self.amount = amount
    }
}

extension LedgerRepository {
    public func entries(in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int?, after: UUID?) async throws -> [SpendingEntry] {
        try await entries(in: ledger, of: user, listing, matching: .everything, limit: limit, after: after)
    }
}

/// Where an import goes: a new ledger (the user becomes its first member and owner) or one of theirs.
public enum ImportTarget: Sendable {
    case new(Ledger)
    case existing(UUID)
}

/// An entry of an import with the key that recognises it when the same file comes again.
public struct ImportedEntry: Sendable {
    public var entry: SpendingEntry
    public var importKey: String

    public init(entry: SpendingEntry, importKey: String) {
        self.entry = entry
        self.importKey = importKey
    }
}

/// A store whose kept totals (S3) can be compared with the totals worked out from every entry:
/// what the totals' property tests check after each change, in every store.
package protocol LedgerTotalsCheck: Sendable {
    /// The kept totals of a ledger and the totals recomputed from its entries; they must be equal.
    func checkTotals(of ledger: UUID) async throws -> (kept: LedgerTotals, recomputed: LedgerTotals)
}
