import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Ledgers, their members, owners and invites (S1) and their activity log (S5). Every write
// locks the ledger before it reads it, so that two instances changing one ledger follow one
// another; the membership check runs inside the same transaction.

extension PostgresStore: LedgerRepository {
    public func createLedger(_ ledger: Ledger, memberNames: [String], user: UUID, linkedMember: Int) async throws -> LedgerDetails {
        try await write(locking: .ledger(ledger.id)) { [self] connection in
            try await insertLedger(ledger, connection)
            var details = LedgerDetails(ledger: ledger, members: [], ownerID: nil, invite: nil, hasEntries: false)
            for (index, name) in memberNames.enumerated() {
                let member = LedgerMember(id: 0, name: name, userID: index == linkedMember ? user : nil)
                details.members.append(try await saveMember(member, of: ledger.id, connection))
            }
            // The creator owns it (S1).
            details.ownerID = details.member(of: user)?.id
            try await connection.run("UPDATE ledger SET ownerMemberId = \(details.ownerID) WHERE id = \(ledger.id)", logger: logger)
            try await log(ActivityNote(Phrase("Created the ledger \(ledger.name).")), ledger: ledger.id, user: user, at: ledger.createdAt, connection)
            return details
        }
    }

    public func ledgers(of user: UUID) async throws -> [LedgerDetails] {
        try await read { [self] connection in
            try Self.details(from: try await connection.rows("""
                \(unescaped: Self.detailsQuery)
                WHERE ledger.id IN (SELECT ledgerId FROM ledgerMember WHERE userId = \(user))
                ORDER BY ledger.createdAt DESC, lower(ledger.name) COLLATE "C", ledger.id, ledgerMember.id
                """, logger: logger))
        }
    }

    public func ledger(_ id: UUID, of user: UUID) async throws -> LedgerDetails {
        try await read { [self] connection in try await details(id, of: user, connection) }
    }

    public func changeLedger(_ id: UUID, of user: UUID, at: Date,
                             _ change: @escaping @Sendable (inout LedgerDetails) throws -> [ActivityNote]) async throws -> LedgerDetails {
        try await write(locking: .ledger(id)) { [self] connection in
            let before = try await details(id, of: user, connection)
            var after = before
            let notes = try change(&after)
            try await save(after, replacing: before, connection)
            for note in notes { try await log(note, ledger: id, user: user, at: at, connection) }
            // Not `details(id, of: user)`: a user who removed their own member has left the
            // ledger, and that is not a "not found" that would roll the removal back.
            return try await details(id, connection)
        }
    }

    public func invitedLedger(codeHash: Data, at: Date) async throws -> LedgerDetails? {
        try await read { [self] connection in
            guard let ledger = try await invitedLedgerID(codeHash, connection) else { return nil }
            let details = try await self.details(ledger, connection)
            return details.invite?.codeHash == codeHash && details.invite?.isValid(at: at) == true ? details : nil
        }
    }

    public func join(codeHash: Data, user: UUID, at: Date, _ chooser: @escaping MemberChooser) async throws -> LedgerDetails {
        try await write(locking: nil) { [self] connection in try await join(codeHash: codeHash, user: user, at: at, chooser, connection) }
    }

    /// Joins within the caller's transaction (a join of its own, or a new account's).
    func join(codeHash: Data, user: UUID, at: Date, _ chooser: MemberChooser, _ connection: PostgresConnection) async throws -> LedgerDetails {
        // The code names the ledger to lock; once locked, the invite is read again, as it
        // may have been revoked, replaced or used up meanwhile.
        guard let ledger = try await invitedLedgerID(codeHash, connection) else { throw LedgerInviteTerms.notValid }
        try await connection.run(WriteLock.ledger(ledger).query, logger: logger)
        let details = try await self.details(ledger, connection)
        guard let invite = details.invite, invite.codeHash == codeHash else { throw LedgerInviteTerms.notValid }
        // A member who follows the link again just gets the ledger, whatever became of it.
        if details.member(of: user) != nil { return details }
        // Checked and used up under the ledger's lock: two people cannot both take the last use.
        guard invite.isValid(at: at) else { throw LedgerInviteTerms.notValid }
        let (member, note) = try chooser(details)
        try await saveMember(LedgerMember(id: member.id, name: member.name, userID: user), of: ledger, connection)
        try await connection.run("UPDATE ledgerInvite SET usesLeft = usesLeft - 1 WHERE codeHash = \(codeHash)", logger: logger)
        try await log(note, ledger: ledger, user: user, at: at, connection)
        return try await self.details(ledger, of: user, connection)
    }

    public func foreignSpending(in ledger: UUID, of user: UUID) async throws -> [ForeignSpending] {
        try await read { [self] connection in try await foreignSpending(in: details(ledger, of: user, connection), connection) }
    }

    func foreignSpending(in details: LedgerDetails, _ connection: PostgresConnection) async throws -> [ForeignSpending] {
        var binds = PostgresBindings()
        binds.append(details.ledger.id)
        return try await connection.rows(PostgresQuery(unsafeSQL: ForeignSpending.sql(ledger: "$1", integer: "::bigint", sequence: "seq"), binds: binds),
                                         logger: logger).map { row in
            let (code, spent, inLedger, rate) = try row.decode((String, Int64, Int64, String).self)
            return try ForeignSpending(code: code, spent: spent, inLedger: inLedger, lastRate: rate, ledger: details.ledger.currency)
        }
    }

    public func standing(of ledger: UUID, of user: UUID) async throws -> LedgerStanding {
        try await read { [self] connection in
            LedgerStanding(details: try await details(ledger, of: user, connection), totals: try await totals(of: ledger, connection))
        }
    }

    public func revision(of ledger: UUID, of user: UUID) async throws -> Int64 {
        try await connection { [self] connection in
            guard let row = try await connection.row("""
                SELECT revision FROM ledger
                WHERE id = \(ledger) AND EXISTS (SELECT 1 FROM ledgerMember WHERE ledgerId = \(ledger) AND userId = \(user))
                """, logger: logger)
            else { throw StoreRefusal.noLedger(ledger) }
            return try row.decode(Int64.self)
        }
    }

    /// Moved on by `log`, which every change calls in its transaction.
    func revision(of ledger: UUID, _ connection: PostgresConnection) async throws -> Int64 {
        try await connection.row("SELECT revision FROM ledger WHERE id = \(ledger)", logger: logger)?.decode(Int64.self) ?? 0
    }

    public func activity(in ledger: UUID, of user: UUID, limit: Int, offset: Int) async throws -> [LedgerActivity] {
        try await read { [self] connection in
            _ = try await details(ledger, of: user, connection)
            return try await connection.rows("""
                SELECT ledgerActivity.at, users.name, ledgerActivity.entryId, ledgerActivity.text, ledgerActivity.phrase
                FROM ledgerActivity LEFT JOIN users ON users.id = ledgerActivity.userId
                WHERE ledgerActivity.ledgerId = \(ledger) ORDER BY ledgerActivity.id DESC LIMIT \(limit) OFFSET \(offset)
                """, logger: logger).map { row in
                let (at, actor, entryID, text, phrase) = try row.decode((Date, String?, UUID?, String, String?).self)
                return LedgerActivity(at: at, actor: actor, entryID: entryID, text: text, phrase: phrase.flatMap(Phrase.init(stored:)))
            }
        }
    }

    public func latestOwnEntryCurrency(in ledger: UUID, of user: UUID, since: Date) async throws -> String? {
        try await read { [self] connection in
            let details = try await details(ledger, of: user, connection)
            // An entry's first line in the log is its adding.
            let row = try await connection.row("""
                SELECT spendingEntry.originalCurrency FROM ledgerActivity
                JOIN spendingEntry ON spendingEntry.id = ledgerActivity.entryId
                WHERE ledgerActivity.ledgerId = \(ledger) AND ledgerActivity.userId = \(user) AND ledgerActivity.at >= \(since)
                  AND spendingEntry.deletedAt IS NULL
                  AND NOT EXISTS (SELECT 1 FROM ledgerActivity earlier
                                  WHERE earlier.entryId = ledgerActivity.entryId AND earlier.id < ledgerActivity.id)
                ORDER BY ledgerActivity.id DESC LIMIT 1
                """, logger: logger)
            return try row.map { try $0.decode(String?.self) ?? details.ledger.currency.code }
        }
    }

    // MARK: - Inside a transaction

    /// The ledger if `user` is one of its members; otherwise not found, whether or not it exists.
    func details(_ id: UUID, of user: UUID, _ connection: PostgresConnection) async throws -> LedgerDetails {
        let details = try await self.details(id, connection)
        guard details.member(of: user) != nil else { throw StoreRefusal.noLedger(id) }
        return details
    }

    /// Every request about a ledger starts here: the ledger, its invite and its members in one query.
    func details(_ id: UUID, _ connection: PostgresConnection) async throws -> LedgerDetails {
        let rows = try await connection.rows("\(unescaped: Self.detailsQuery) WHERE ledger.id = \(id) ORDER BY ledgerMember.id", logger: logger)
        guard let details = try Self.details(from: rows).first else { throw StoreRefusal.noLedger(id) }
        return details
    }

    /// One row per member (or one without a member), each with its ledger's columns: what
    /// `details(from:)` reads. A recurring expense counts as an entry: its amount is in the currency.
    private static let detailsQuery = """
        SELECT ledger.id, ledger.name, ledger.currency, ledger.createdAt, ledger.ownerMemberId,
            EXISTS (SELECT 1 FROM spendingEntry WHERE spendingEntry.ledgerId = ledger.id)
                OR EXISTS (SELECT 1 FROM recurringExpense WHERE recurringExpense.ledgerId = ledger.id),
            ledgerInvite.codeHash, ledgerInvite.createdAt, ledgerInvite.expiresAt, ledgerInvite.usesLeft,
            ledgerMember.id, ledgerMember.name, ledgerMember.userId
        FROM ledger
        LEFT JOIN ledgerInvite ON ledgerInvite.ledgerId = ledger.id
        LEFT JOIN ledgerMember ON ledgerMember.ledgerId = ledger.id
        """

    /// The ledgers of `detailsQuery`'s rows, in the order of their first rows; each ledger's
    /// rows must follow one another, its members in the order they joined.
    private static func details(from rows: [PostgresRow]) throws -> [LedgerDetails] {
        var ledgers: [LedgerDetails] = []
        for row in rows {
            let (id, name, currency, createdAt, ownerID, hasEntries, codeHash, inviteCreatedAt, expiresAt, usesLeft, memberID, memberName, userID)
                = try row.decode((UUID, String, String, Date, Int64?, Bool, Data?, Date?, Date?, Int?, Int64?, String?, UUID?).self)
            if ledgers.last?.ledger.id != id {
                var invite: LedgerInvite?
                if let codeHash, let inviteCreatedAt, let expiresAt, let usesLeft {
                    invite = LedgerInvite(codeHash: codeHash, createdAt: inviteCreatedAt, expiresAt: expiresAt, usesLeft: usesLeft)
                }
                ledgers.append(LedgerDetails(ledger: Ledger(id: id, name: name, currency: try Currency(code: currency), createdAt: createdAt),
                                             members: [], ownerID: ownerID, invite: invite, hasEntries: hasEntries))
            }
            if let memberID, let memberName {
                ledgers[ledgers.count - 1].members.append(LedgerMember(id: memberID, name: memberName, userID: userID))
            }
        }
        return ledgers
    }

    /// The ledger whose invite has this code hash, valid or not.
    private func invitedLedgerID(_ codeHash: Data, _ connection: PostgresConnection) async throws -> UUID? {
        try await connection.row("SELECT ledgerId FROM ledgerInvite WHERE codeHash = \(codeHash)", logger: logger)?.decode(UUID.self)
    }

    /// Stores a new ledger, with no owner until its members are in.
    func insertLedger(_ ledger: Ledger, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO ledger (id, name, currency, createdAt) VALUES (\(ledger.id), \(ledger.name), \(ledger.currency.code), \(ledger.createdAt))
            """, logger: logger)
    }

    /// Adds a member (id 0) or changes one of this ledger's; returns it with its id.
    @discardableResult
    func saveMember(_ member: LedgerMember, of ledger: UUID, _ connection: PostgresConnection) async throws -> LedgerMember {
        let saved = if member.id == 0 {
            try await connection.row("""
                INSERT INTO ledgerMember (ledgerId, name, userId) VALUES (\(ledger), \(member.name), \(member.userID)) RETURNING id
                """, logger: logger)
        } else {
            try await connection.row("""
                UPDATE ledgerMember SET name = \(member.name), userId = \(member.userID)
                WHERE id = \(member.id) AND ledgerId = \(ledger) RETURNING id
                """, logger: logger)
        }
        guard let saved else { throw StoreRefusal.noMember(member.id) }
        return LedgerMember(id: try saved.decode(MemberID.self), name: member.name, userID: member.userID)
    }

    /// Writes what `after` changed: the ledger and its owner, the members (those gone only
    /// when nothing refers to them) and the invite.
    private func save(_ after: LedgerDetails, replacing before: LedgerDetails, _ connection: PostgresConnection) async throws {
        let ledger = after.ledger.id
        if after.ledger != before.ledger || after.ownerID != before.ownerID {
            try await connection.run("""
                UPDATE ledger SET name = \(after.ledger.name), currency = \(after.ledger.currency.code), ownerMemberId = \(after.ownerID)
                WHERE id = \(ledger)
                """, logger: logger)
        }
        let kept = Set(after.members.map(\.id))
        let leaving = before.members.filter { !kept.contains($0.id) }
        let recurring = leaving.isEmpty ? [] : try await recurringExpenses(of: before, connection)
        for gone in leaving {
            let used = try await connection.row("""
                SELECT 1 WHERE EXISTS (SELECT 1 FROM spendingEntry WHERE payerId = \(gone.id))
                    OR EXISTS (SELECT 1 FROM spendingShare WHERE memberId = \(gone.id))
                    OR EXISTS (SELECT 1 FROM spendingPayer WHERE memberId = \(gone.id))
                """, logger: logger) != nil
            try StoreRefusal.checkRemoval(of: gone, hasEntries: used, recurring: recurring)
            try await connection.run("DELETE FROM ledgerMember WHERE id = \(gone.id)", logger: logger)
        }
        for member in after.members where !before.members.contains(member) {
            try await saveMember(member, of: ledger, connection)
        }
        if after.invite != before.invite {
            // One invite per ledger: a new one replaces the old, whose code then opens nothing.
            if let invite = after.invite {
                try await connection.run("""
                    INSERT INTO ledgerInvite (codeHash, ledgerId, createdAt, expiresAt, usesLeft)
                    VALUES (\(invite.codeHash), \(ledger), \(invite.createdAt), \(invite.expiresAt), \(invite.usesLeft))
                    ON CONFLICT (ledgerId) DO UPDATE SET codeHash = excluded.codeHash, createdAt = excluded.createdAt,
                        expiresAt = excluded.expiresAt, usesLeft = excluded.usesLeft
                    """, logger: logger)
            } else {
                try await connection.run("DELETE FROM ledgerInvite WHERE ledgerId = \(ledger)", logger: logger)
            }
        }
    }

    /// Writes a line of the activity log, in the transaction of the change it tells of.
    func log(_ note: ActivityNote, ledger: UUID, user: UUID?, at: Date, _ connection: PostgresConnection) async throws {
        // One round trip: the line, and the ledger's revision moved on.
        try await connection.run("""
            WITH noted AS (
                INSERT INTO ledgerActivity (ledgerId, at, userId, entryId, text, phrase)
                VALUES (\(ledger), \(at), \(user), \(note.entryID), \(note.text), \(note.phrase.stored))
            )
            UPDATE ledger SET revision = revision + 1 WHERE id = \(ledger)
            """, logger: logger)
    }

}
