import Foundation
import TallyCore
import TallyRepositories

extension SpendingService {
    /// A member as an interface names one: by id (the API) or by name (the CLI).
    public enum MemberRef: Sendable, Hashable {
        case id(MemberID)
        case name(String)

        func resolve(in members: [LedgerMember]) throws -> MemberID {
            switch self {
            case .id(let id):
                guard members.contains(where: { $0.id == id }) else {
                    throw TallyError.invalid("Member \(id) is not in this ledger: use one of \(members.map { "\($0.id) (\($0.name))" }.joined(separator: ", ")).")
                }
                return id
            case .name(let name):
                return try LedgerRules.member(named: name, in: members).id
            }
        }
    }

    /// An amount as it arrived: typed text, or an exact decimal from JSON.
    public enum AmountInput: Sendable, Hashable {
        case text(String)
        case decimal(Decimal)

        /// The amount in `currency`, checked; a refusal names `field`.
        func money(in currency: Currency, what: String, field: String = "amount") throws -> Money {
            let money = try TallyError.about(field) {
                switch self {
                case .text(let text): try Money(parsing: text, currency: currency)
                case .decimal(let decimal): try Money(exactly: decimal, currency: currency)
                }
            }
            try TransactionAmount.validate(money, what: what, field: field)
            return money
        }
    }

    /// How to split: a method and the members it covers, each with a value unless equal.
    /// No members means everyone, for an equal split.
    public struct SplitInput: Sendable, Hashable {
        public var method: SplitMethod
        public var parts: [Part]

        public struct Part: Sendable, Hashable {
            public var member: MemberRef
            public var value: AmountInput?

            public init(member: MemberRef, value: AmountInput? = nil) {
                self.member = member
                self.value = value
            }
        }

        public init(method: SplitMethod = .equal, parts: [Part] = []) {
            self.method = method
            self.parts = parts
        }

        /// A share count, percentage or exact amount as typed: digits and one decimal point or comma.
        static func number(_ text: String, method: SplitMethod) throws -> Decimal {
            let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
            guard !trimmed.isEmpty, trimmed.filter({ $0 == "." }).count <= 1,
                  trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
            else {
                throw TallyError.invalid("\"\(text)\" is not a number: write the \(method.valueName) with digits, such as 2 or 12.50.")
            }
            return value
        }

        /// The split among `members`, its values checked.
        public func split(among members: [LedgerMember]) throws -> Split {
            try TallyError.about("split") { try checkedSplit(among: members) }
        }

        private func checkedSplit(among members: [LedgerMember]) throws -> Split {
            if parts.isEmpty {
                guard method == .equal else {
                    throw TallyError.invalid("A split by \(method.rawValue) needs each member's \(method.valueName).")
                }
                return try .equal(members.map(\.id))
            }
            return try Split(method: method, parts: parts.map { part in
                let id = try part.member.resolve(in: members)
                guard method != .equal else { return SplitPart(member: id) }
                let value: Decimal = switch part.value {
                case .decimal(let decimal): decimal
                case .text(let text): try Self.number(text, method: method)
                case nil: throw TallyError.invalid("A split by \(method.rawValue) needs each member's \(method.valueName).")
                }
                return SplitPart(member: id, value: value)
            })
        }
    }

    public struct ExpenseInput: Sendable {
        public var amount: AmountInput
        /// The user's own member when nil, and `payers` too.
        public var payer: MemberRef?
        /// Several members who paid, each their part; instead of `payer`.
        public var payers: [PayerInput]?
        /// Today in the user's time zone when nil.
        public var date: LocalDate?
        public var description: String?
        public var category: String?
        public var split: SplitInput
        /// A client's id, so that sending the same expense twice records it once.
        public var id: UUID?

        public init(amount: AmountInput, payer: MemberRef? = nil, payers: [PayerInput]? = nil, date: LocalDate? = nil,
                    description: String? = nil, category: String? = nil, split: SplitInput = SplitInput(), id: UUID? = nil) {
            self.amount = amount
            self.payer = payer
            self.payers = payers
            self.date = date
            self.description = description
            self.category = category
            self.split = split
            self.id = id
        }
    }

    // MARK: - Expenses and payments (S2, S4)

    @discardableResult
    public func addExpense(to ledger: UUID, _ input: ExpenseInput) async throws -> (entry: SpendingEntry, created: Bool) {
        let (user, now) = (self.user, clock.now)
        let key = LedgerEntryKey(client: input.id, in: ledger)
        return try await store.addEntry(key, to: ledger, by: user) { details, zone in
            let amount = try input.amount.money(in: details.ledger.currency, what: "An expense")
            let entry = try SpendingEntry(
                id: key.id, kind: .expense, amount: amount,
                payers: try Self.payers(one: input.payer, several: input.payers, amount: amount, user: user, in: details),
                date: input.date ?? LocalDate(containing: now, in: zone),
                description: input.description, category: input.category,
                split: try input.split.split(among: details.members), createdAt: now, members: details.members)
            return (entry, ActivityNote("Added \(EntryWording(details).describe(entry)).", entryID: entry.id))
        }
    }

    /// Records a payment from one member to another (S4).
    @discardableResult
    public func recordPayment(in ledger: UUID, from: MemberRef?, to: MemberRef, amount: AmountInput, date: LocalDate? = nil,
                              note: String? = nil, id: UUID? = nil) async throws -> (entry: SpendingEntry, created: Bool) {
        let (user, now) = (self.user, clock.now)
        let key = LedgerEntryKey(client: id, in: ledger)
        return try await store.addEntry(key, to: ledger, by: user) { details, zone in
            let entry = try SpendingEntry.payment(
                id: key.id, from: try Self.payer(from, user: user, in: details), to: try to.resolve(in: details.members),
                amount: try amount.money(in: details.ledger.currency, what: "A payment"), date: date ?? LocalDate(containing: now, in: zone),
                note: note, createdAt: now, members: details.members)
            return (entry, ActivityNote("Recorded \(EntryWording(details).describe(entry)).", entryID: entry.id))
        }
    }

    /// What an edit changes; nil leaves a field as it is, and an empty text clears it.
    public struct EntryChange: Sendable {
        public var amount: AmountInput?
        /// One member who paid it all.
        public var payer: MemberRef?
        /// Several members who paid, each their part; instead of `payer`.
        public var payers: [PayerInput]?
        public var date: LocalDate?
        public var description: String?
        public var category: String?
        public var split: SplitInput?

        public init(amount: AmountInput? = nil, payer: MemberRef? = nil, payers: [PayerInput]? = nil, date: LocalDate? = nil,
                    description: String? = nil, category: String? = nil, split: SplitInput? = nil) {
            self.amount = amount
            self.payer = payer
            self.payers = payers
            self.date = date
            self.description = description
            self.category = category
            self.split = split
        }
    }

    /// Edits an expense or payment; the activity log says what changed from what (S5).
    /// `seen`, the entry's fingerprint as the person saw it, refuses the edit if it changed since.
    public func editEntry(_ id: UUID, in ledger: UUID, _ change: EntryChange, seen: String? = nil) async throws -> SpendingEntry {
        let user = self.user
        return try await store.changeEntry(id, in: ledger, by: user, at: clock.now) { entry, details in
            try entry.check(seen: seen, describedAs: EntryWording(details).describe(entry))
            let before = entry
            let amount = try change.amount?.money(in: details.ledger.currency, what: entry.kind == .payment ? "A payment" : "An expense") ?? entry.amount
            var split = try change.split.map { try $0.split(among: details.members) } ?? entry.split
            if entry.kind == .payment {
                guard change.split == nil else { throw TallyError.invalid("A payment goes to one member; change its recipient by deleting it and recording a new one.") }
                split = try Split(method: .exact, parts: [SplitPart(member: entry.recipient!, value: amount.decimal)])
            }
            entry = try SpendingEntry(
                id: entry.id, kind: entry.kind, amount: amount,
                payers: try Self.payers(after: change, of: entry, amount: amount, in: details),
                date: change.date ?? entry.date,
                description: change.description ?? entry.description,
                category: change.category ?? entry.category,
                split: split, createdAt: entry.createdAt, deletedAt: entry.deletedAt, members: details.members)
            let changes = EntryWording(details).changes(from: before, to: entry)
            guard !changes.isEmpty else { return ActivityNote("Saved \(EntryWording(details).describe(entry)) without changes.", entryID: id) }
            return ActivityNote("Changed \(EntryWording(details).title(before)): \(changes.joined(separator: "; ")).", entryID: id)
        }
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
        return try await store.changeEntry(id, in: ledger, by: user, at: now) { entry, details in
            guard entry.deletedAt == nil else { throw TallyError.conflict("This entry is already deleted; restore it to bring it back.") }
            try entry.check(seen: seen, describedAs: EntryWording(details).describe(entry))
            entry.deletedAt = now
            return ActivityNote("Deleted \(EntryWording(details).describe(entry)).", entryID: id)
        }
    }

    public func restoreEntry(_ id: UUID, in ledger: UUID) async throws -> SpendingEntry {
        try await store.changeEntry(id, in: ledger, by: user, at: clock.now) { entry, details in
            guard entry.deletedAt != nil else { throw TallyError.conflict("This entry is not deleted.") }
            entry.deletedAt = nil
            return ActivityNote("Restored \(EntryWording(details).describe(entry)).", entryID: id)
        }
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

        public func name(_ member: MemberID) -> String { EntryWording(details).name(member) }

        /// "Person 2 owes Person 1 9.99 EUR.", one per transfer of the plan, or that all is settled.
        public var sentences: [String] {
            guard !plan.isEmpty else { return ["Everyone is settled up."] }
            return plan.map { "\(name($0.from)) owes \(name($0.to)) \($0.amount)." }
        }
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

    static func summary(_ standing: LedgerStanding) -> Summary {
        let balances = LedgerBalances(currency: standing.details.ledger.currency,
                                      members: standing.details.members.map(\.id), totals: standing.totals)
        return Summary(details: standing.details, balances: balances, plan: balances.plan)
    }

    // MARK: -

    /// The member named, or the user's own member.
    static func payer(_ ref: MemberRef?, user: UUID, in details: LedgerDetails) throws -> MemberID {
        if let ref { return try ref.resolve(in: details.members) }
        guard let own = details.member(of: user) else { throw TallyError.invalid("Name the payer.") }
        return own.id
    }
}

extension SplitMethod {
    /// What each member's value is called in this method.
    public var valueName: String {
        switch self {
        case .equal: "member"
        case .shares: "share count"
        case .exact: "amount"
        case .percent: "percentage"
        }
    }
}
