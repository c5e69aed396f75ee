import Foundation
import TallyCore

/// What the spending part of the store must offer the service: ledgers, and users' settings
/// for the day an expense falls on.
public typealias SpendingStore = LedgerRepository & UserRepository

/// One user's view of their shared ledgers (S1–S5): what the CLI and the server call. It reads
/// the clock, applies TallyCore's rules and leaves each change's atomicity to the store.
public struct SpendingService: Sendable {
    public let store: any SpendingStore
    public let clock: any WallClock
    public let user: UUID

    public init(store: any SpendingStore, clock: any WallClock, user: UUID) {
        self.store = store
        self.clock = clock
        self.user = user
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
                notes.append(ActivityNote("Renamed the ledger from \(details.ledger.name) to \(newName)."))
                details.ledger.name = newName
            }
            if let newCurrency, newCurrency != details.ledger.currency {
                guard !details.hasEntries else {
                    throw TallyError.conflict("The currency cannot change once the ledger has expenses: start a new ledger for \(newCurrency.code).")
                }
                notes.append(ActivityNote("Changed the currency from \(details.ledger.currency.code) to \(newCurrency.code)."))
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
            return [ActivityNote("Added \(name) as a member.")]
        }
    }

    public func renameMember(_ member: MemberID, in ledger: UUID, to name: String) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { details in
            guard let index = details.members.firstIndex(where: { $0.id == member }) else { throw Self.noMember(member) }
            let old = details.members[index].name
            let others = details.members.filter { $0.id != member }
            details.members[index].name = try LedgerRules.validateMemberName(name, among: others)
            return old == details.members[index].name ? [] : [ActivityNote("Renamed \(old) to \(details.members[index].name).")]
        }
    }

    /// Removes a member who has no expenses or payments; never the last member linked to an account.
    public func removeMember(_ member: MemberID, from ledger: UUID) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { details in
            guard let gone = details.members.first(where: { $0.id == member }) else { throw Self.noMember(member) }
            details.members.removeAll { $0.id == member }
            guard details.members.contains(where: { $0.userID != nil }) else {
                throw TallyError.conflict("\(gone.name) is the ledger's only member with an account; invite someone before removing them.")
            }
            guard !details.members.isEmpty else { throw TallyError.conflict("A ledger keeps at least one member.") }
            return [ActivityNote("Removed \(gone.name) from the members.")]
        }
    }

    /// Opens an invite (or replaces the open one) and returns its code.
    public func openInvite(_ ledger: UUID) async throws -> LedgerDetails {
        let code = InviteCode.make()
        return try await store.changeLedger(ledger, of: user, at: clock.now) { details in
            details.inviteCode = code
            return [ActivityNote("Opened a new invite.")]
        }
    }

    public func revokeInvite(_ ledger: UUID) async throws -> LedgerDetails {
        try await store.changeLedger(ledger, of: user, at: clock.now) { details in
            guard details.inviteCode != nil else { return [] }
            details.inviteCode = nil
            return [ActivityNote("Revoked the invite.")]
        }
    }

    /// Joins the ledger whose invite is `code` as `member` (a member no account is linked to),
    /// or as the first such member, or as a new member named `newName`.
    /// The ledger an invite code opens, to show before joining; nil for a code no ledger has.
    public func invitation(code: String) async throws -> LedgerDetails? {
        try await store.invitedLedger(code: InviteCode.normalize(code))
    }

    public func join(code: String, as member: MemberRef? = nil, newName: String? = nil) async throws -> LedgerDetails {
        let code = InviteCode.normalize(code)
        return try await store.join(code: code, user: user, at: clock.now) { details in
            let free = details.members.filter { $0.userID == nil }
            if let member {
                let id = try member.resolve(in: details.members)
                guard let chosen = free.first(where: { $0.id == id }) else {
                    throw TallyError.conflict("That member is already someone else's: pick one of \(free.map(\.name).joined(separator: ", ")) or join as a new member.")
                }
                return (chosen, ActivityNote("Joined as \(chosen.name)."))
            }
            if newName == nil, let first = free.first {
                return (first, ActivityNote("Joined as \(first.name)."))
            }
            try LedgerRules.checkRoomForMember(count: details.members.count)
            let name = try LedgerRules.validateMemberName(newName ?? LedgerRules.unusedPersonName(among: details.members), among: details.members)
            return (LedgerMember(id: 0, name: name, userID: nil), ActivityNote("Joined as the new member \(name)."))
        }
    }

    // MARK: - Imports (S6)

    /// Adds `entries` in one transaction, with the members they need: into `ledger`, or into a
    /// new ledger called `name` in `currency` whose first member is the user. `entries` gets the
    /// ledger with every member and makes the entries (checking each); nothing is written unless
    /// every one passes.
    public func importEntries(into ledger: UUID?, name: String, currency: Currency, memberNames: [String], note: String,
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

/// Invite codes: 12 letters and digits without look-alikes (no 0/O, 1/I/L), in groups of four,
/// read aloud or typed from a phone: 54 bits of randomness.
public enum InviteCode {
    static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")

    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }
        return stride(from: 0, to: 12, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// The code as stored, from what someone typed or pasted: any case, with or without dashes,
    /// or the whole invite link.
    public static func normalize(_ text: String) -> String {
        let last = text.split(separator: "/").last.map(String.init) ?? text
        let characters = last.uppercased().filter { alphabet.contains($0) }
        guard characters.count == 12 else { return last }
        let array = Array(characters)
        return stride(from: 0, to: 12, by: 4).map { String(array[$0..<$0 + 4]) }.joined(separator: "-")
    }
}
