import Foundation
import TallyCore
import TallyRepositories

/// What the spending part of the store must offer the service: ledgers (the day an expense
/// without a date falls on is read inside its write), their recurring expenses and receipts.
public typealias SpendingStore = LedgerRepository & RecurringExpenseRepository & LedgerNoticeRepository & ReceiptRepository

/// One user's view of their shared ledgers (S1–S5): what the CLI and the server call. It reads
/// the clock, applies TallyCore's rules and leaves each change's atomicity to the store.
public struct SpendingService: Sendable {
    public let store: any SpendingStore
    public let clock: any WallClock
    public let user: UUID
    /// Told of each expense or payment added, changed, deleted or restored.
    public let listener: (any EntryChangeListener)?

    public init(store: any SpendingStore, clock: any WallClock, user: UUID, listener: (any EntryChangeListener)? = nil) {
        self.store = store
        self.clock = clock
        self.user = user
        self.listener = listener
    }

    /// Tells the listener of a change just stored, and returns the entry.
    func told(_ kind: EntryChange.Kind, _ entry: SpendingEntry, in ledger: UUID) -> SpendingEntry {
        listener?.entryChanged(EntryChange(kind: kind, ledger: ledger, author: user, entry: entry, at: clock.now))
        return entry
    }

    // MARK: - Ledgers and members (S1)

    /// A new ledger with two members, "Person 1" (the user) and "Person 2", unless named.
    public func createLedger(name: String, currency: String, memberNames: [String]? = nil) async throws -> LedgerDetails {
        let ledger = Ledger(id: UUID(), name: try LedgerRules.validateLedgerName(name),
                            currency: try Currency(code: currency), createdAt: clock.now)
        var names: [LedgerMember] = []
        for name in memberNames ?? LedgerRules.defaultMemberNames {
            try LedgerRules.checkRoomForMember(count: names.count)
            names.append(LedgerMember(id: 0, name: try LedgerRules.validateMemberName(name, among: names), userID: nil))
        }
        guard !names.isEmpty else { throw TallyError.invalid("A ledger needs at least one member.") }
        return try await store.createLedger(ledger, memberNames: names.map(\.name), user: user, linkedMember: 0)
    }

    /// Whether the user hears of the changes others make to the ledger.
    public func changeNotifications(in ledger: UUID) async throws -> Bool {
        try await store.changeNotifications(in: ledger, of: user)
    }

    public func setChangeNotifications(_ on: Bool, in ledger: UUID) async throws {
        try await store.setChangeNotifications(on, in: ledger, of: user)
    }

    public func ledgers() async throws -> [LedgerDetails] {
        try await store.ledgers(of: user)
    }

    public func ledger(_ id: UUID) async throws -> LedgerDetails {
        try await store.ledger(id, of: user)
    }

    /// Renames the ledger or changes its currency; the currency only while it has no entries,
    /// since amounts are kept in its minor units.
    public func changeLedger(_ id: UUID, name: String?, currency: String?) async throws -> LedgerDetails {
        let newName = try name.map(LedgerRules.validateLedgerName)
        let newCurrency = try currency.map { try Currency(code: $0) }
        return try await store.changeLedger(id, of: user, at: clock.now) { details in
            var notes: [ActivityNote] = []
            if let newName, newName != details.ledger.name {
                notes.append(ActivityNote(Phrase("Renamed the ledger from \(details.ledger.name) to \(newName).")))
                details.ledger.name = newName
            }
            if let newCurrency, newCurrency != details.ledger.currency {
                guard !details.hasEntries else {
                    throw TallyError.conflict("The currency cannot change once the ledger has expenses: start a new ledger for \(newCurrency.code).")
                }
                notes.append(ActivityNote(Phrase("Changed the currency from \(details.ledger.currency.code) to \(newCurrency.code).")))
                details.ledger.currency = newCurrency
            }
            return notes
        }
    }

    public func addMember(to ledger: UUID, name: String) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { details in
            try LedgerRules.checkRoomForMember(count: details.members.count)
            let name = try LedgerRules.validateMemberName(name, among: details.members)
            details.members.append(LedgerMember(id: 0, name: name, userID: nil))
            return [ActivityNote(Phrase("Added \(name) as a member."))]
        }
    }

    /// Renames a member: anyone may rename themselves or a member nobody has joined as; only
    /// the owner may rename a member another account acts as (S1).
    public func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { [user] details in
            guard let index = details.members.firstIndex(where: { $0.id == member }) else { throw Self.noMember(member) }
            if let account = details.members[index].userID, account != user {
                try details.requireOwner(user, to: Phrase("rename members who joined with their own account"))
            }
            let old = details.members[index].name
            let others = details.members.filter { $0.id != member }
            details.members[index].name = try LedgerRules.validateMemberName(name, among: others)
            return old == details.members[index].name ? [] : [ActivityNote(Phrase("Renamed \(old) to \(details.members[index].name)."))]
        }
    }

    /// Removes a member who has no expenses or payments; never the last member linked to an
    /// account. Only the owner removes others (S1); anyone may remove their own member, which
    /// is leaving, and an owner who leaves hands the ledger to the member with an account who
    /// joined first.
    public func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { [user] details in
            guard let gone = details.members.first(where: { $0.id == member }) else { throw Self.noMember(member) }
            if gone.userID != user { try details.requireOwner(user, to: Phrase("remove members")) }
            let wasOwner = gone.id == details.owner?.id
            details.members.removeAll { $0.id == member }
            guard details.members.contains(where: { $0.userID != nil }) else {
                throw TallyError.conflict("\(gone.name) is the ledger's only member with an account; invite someone before removing them.")
            }
            guard !details.members.isEmpty else { throw TallyError.conflict("A ledger keeps at least one member.") }
            var notes: [ActivityNote] = []
            if wasOwner, let heir = details.members.first(where: { $0.userID != nil }) {
                details.ownerID = heir.id
                notes.append(ActivityNote(Phrase("Made \(heir.name) the owner.")))
            }
            return notes + [ActivityNote(Phrase("Removed \(gone.name) from the members."))]
        }
    }

    /// Hands the ledger to `member`, who must have joined with an account (S1).
    public func transferOwnership(of ledger: UUID, to member: MemberRef) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { [user] details in
            try details.requireOwner(user, to: Phrase("make someone else its owner"))
            let id = try member.resolve(in: details.members)
            guard let chosen = details.members.first(where: { $0.id == id }) else { throw Self.noMember(id) }
            guard chosen.userID != nil else {
                throw TallyError.conflict("Nobody has joined as \(chosen.name) yet: only a member with an account can own the ledger.")
            }
            guard chosen.id != details.owner?.id else { return [] }
            details.ownerID = chosen.id
            return [ActivityNote(Phrase("Made \(chosen.name) the owner."))]
        }
    }

    /// Opens an invite, replacing the open one; the answer alone carries its code (S1).
    public func openInvite(_ ledger: UUID, terms: LedgerInviteTerms? = nil) async throws -> LedgerDetails {
        let terms = try terms ?? LedgerInviteTerms()
        let code = InviteCode.make()
        let now = clock.now
        let invite = LedgerInvite(codeHash: InviteCode.hash(code), createdAt: now, expiresAt: terms.expiry(from: now), usesLeft: terms.uses)
        var details = try await store.changeLedger(ledger, of: user, at: now) { [user] details in
            try details.requireOwner(user, to: Phrase("open an invite"))
            details.invite = invite
            let people = terms.uses == 1 ? Phrase("one person") : Phrase(one: "\(terms.uses) person", other: "\(terms.uses) people")
            let days = Phrase(one: "\(terms.days) day", other: "\(terms.days) days")
            return [ActivityNote(Phrase("Opened a new invite for \(people), for \(days)."))]
        }
        details.newInviteCode = code
        return details
    }

    public func revokeInvite(_ ledger: UUID) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { [user] details in
            try details.requireOwner(user, to: Phrase("revoke the invite"))
            guard details.invite != nil else { return [] }
            details.invite = nil
            return [ActivityNote(Phrase("Revoked the invite."))]
        }
    }

    /// The ledger an invite code opens, to show before joining; nil for a code that opens
    /// nothing (any more).
    public func invitation(code: String) async throws -> LedgerDetails? {
        try await store.invitedLedger(codeHash: InviteCode.hash(code), at: clock.now)
    }

    /// Joins the ledger whose invite is `code` as the person chooses (S1): as `member` (one no
    /// account is linked to), or as a new member named `newName`. Choosing nothing is fine only
    /// when there is nothing to choose: the one member nobody has joined as, or a new member
    /// when every member has joined.
    public func join(code: String, as member: MemberRef? = nil, newName: String? = nil) async throws -> LedgerDetails {
        try await store.join(codeHash: InviteCode.hash(code), user: user, at: clock.now, Self.joining(as: member, newName: newName))
    }

    /// The member someone joins as (`join`, or a sign-up through an invite link, which joins in
    /// the new account's transaction), picked from the ledger as it stands.
    public static func joining(as member: MemberRef?, newName: String?) -> MemberChooser {
        { details in
            let free = details.members.filter { $0.userID == nil }
            if let member {
                guard newName == nil else {
                    throw TallyError.invalid("Join either as a member who is there or as someone new, not both.")
                }
                let id = try member.resolve(in: details.members)
                guard let chosen = free.first(where: { $0.id == id }) else {
                    throw TallyError.conflict("That member is already someone else's: pick one of \(free.map(\.name).joined(separator: ", ")) or join as someone new.")
                }
                return (chosen, ActivityNote(Phrase("Joined as \(chosen.name).")))
            }
            if newName == nil, free.count == 1 {
                return (free[0], ActivityNote(Phrase("Joined as \(free[0].name).")))
            }
            if newName == nil, free.count > 1 {
                throw TallyError.invalid("Say who you are in \(details.ledger.name): one of \(free.map(\.name).joined(separator: ", ")), or someone new.")
            }
            try LedgerRules.checkRoomForMember(count: details.members.count)
            let name = try LedgerRules.validateMemberName(newName ?? LedgerRules.unusedPersonName(among: details.members), among: details.members)
            return (LedgerMember(id: 0, name: name, userID: nil), ActivityNote(Phrase("Joined as the new member \(name).")))
        }
    }

    // MARK: - Imports (S6)

    /// Adds `entries` in one transaction, with the members they need: into `ledger`, or into a
    /// new ledger called `name` in `currency` whose first member is the user. `entries` gets the
    /// ledger with every member and makes the entries (checking each); nothing is written unless
    /// every one passes.
    public func importEntries(into ledger: UUID?, name: String, currency: Currency, memberNames: [String], note: Phrase,
                              _ entries: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int, newMembers: [String]) {
        var existing: [LedgerMember] = []
        let target: ImportTarget
        if let ledger {
            let details = try await store.ledger(ledger, of: user)
            existing = details.members
            target = .existing(ledger)
        } else {
            target = .new(Ledger(id: UUID(), name: try LedgerRules.validateLedgerName(name), currency: currency, createdAt: clock.now))
        }
        var added: [LedgerMember] = []
        for name in memberNames where !(existing + added).contains(where: { $0.name.caseInsensitiveCompare(name.trimmingCharacters(in: .whitespaces)) == .orderedSame }) {
            try LedgerRules.checkRoomForMember(count: existing.count + added.count)
            added.append(LedgerMember(id: 0, name: try LedgerRules.validateMemberName(name, among: existing + added), userID: nil))
        }
        guard !(existing + added).isEmpty else { throw TallyError.invalid("There is nobody to import: the export names no members.") }
        let (details, count) = try await store.importEntries(into: target, by: user, at: clock.now, memberNames: added.map(\.name),
                                                             note: ActivityNote(note), entries)
        return (details, count, added.map(\.name))
    }

    static func noMember(_ id: MemberID) -> TallyError {
        TallyError.notFound("This ledger has no member with the id \(id).")
    }
}
