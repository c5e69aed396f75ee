import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: LedgerRepository {
    public func createLedger(_ ledger: Ledger, memberNames: [String], user: UUID, linkedMember: Int) async throws -> LedgerDetails {
        try await write { db in
            var details = LedgerDetails(ledger: ledger, members: [], ownerID: nil, invite: nil, hasEntries: false)
            try LedgerRecord(details).insert(db)
            for (index, name) in memberNames.enumerated() {
                var record = LedgerMemberRecord(LedgerMember(id: 0, name: name, userID: index == linkedMember ? user : nil), ledger: ledger.id)
                try record.insert(db)
                details.members.append(record.member)
            }
            // The creator owns it (S1).
            details.ownerID = details.member(of: user)?.id
            try LedgerRecord(details).update(db)
            try Self.log(ActivityNote(Phrase("Created the ledger \(ledger.name).")), ledger: ledger.id, user: user, at: ledger.createdAt, db)
            return details
        }
    }

    public func ledgers(of user: UUID) async throws -> [LedgerDetails] {
        try await read { db in
            let ids = try UUID.fetchAll(db, sql: """
                SELECT ledger.id FROM ledger JOIN ledgerMember ON ledgerMember.ledgerId = ledger.id
                WHERE ledgerMember.userId = ? ORDER BY ledger.createdAt DESC, ledger.name COLLATE NOCASE
                """, arguments: [user])
            return try ids.map { try Self.details($0, of: user, db) }
        }
    }

    public func ledger(_ id: UUID, of user: UUID) async throws -> LedgerDetails {
        try await read { db in try Self.details(id, of: user, db) }
    }

    public func changeLedger(_ id: UUID, of user: UUID, at: Date,
                             _ change: @escaping @Sendable (inout LedgerDetails) throws -> [ActivityNote]) async throws -> LedgerDetails {
        try await write { db in
            let before = try Self.details(id, of: user, db)
            var after = before
            let notes = try change(&after)
            try Self.save(after, replacing: before, db)
            for note in notes { try Self.log(note, ledger: id, user: user, at: at, db) }
            // Not `details(id, of: user)`: a user who removed their own member has left the
            // ledger, and that is not a "not found" that would roll the removal back.
            return try Self.details(id, db)
        }
    }

    public func invitedLedger(codeHash: Data, at: Date) async throws -> LedgerDetails? {
        try await read { db in
            try Self.validInvite(codeHash, at: at, db).map { try Self.details($0.ledgerId, db) }
        }
    }

    public func join(codeHash: Data, user: UUID, at: Date, _ chooser: @escaping MemberChooser) async throws -> LedgerDetails {
        try await write { db in try Self.join(codeHash: codeHash, user: user, at: at, chooser, db) }
    }

    /// Joins within the caller's transaction (a join of its own, or a new account's).
    static func join(codeHash: Data, user: UUID, at: Date, _ chooser: MemberChooser, _ db: Database) throws -> LedgerDetails {
        guard var invite = try LedgerInviteRecord.fetchOne(db, key: codeHash) else { throw LedgerInviteTerms.notValid }
        let ledgerID = invite.ledgerId
        let details = try Self.details(ledgerID, db)
        // A member who follows the link again just gets the ledger, whatever became of it.
        if details.member(of: user) != nil { return details }
        // Checked and used up in one transaction: two people cannot both take the last use.
        guard invite.invite.isValid(at: at) else { throw LedgerInviteTerms.notValid }
        let (member, note) = try chooser(details)
        var record = LedgerMemberRecord(member, ledger: ledgerID)
        record.userId = user
        try record.save(db)
        invite.usesLeft -= 1
        try invite.update(db)
        try Self.log(note, ledger: ledgerID, user: user, at: at, db)
        return try Self.details(ledgerID, of: user, db)
    }

    public func addEntry(_ key: LedgerEntryKey, to ledger: UUID, by user: UUID,
                         _ build: @escaping @Sendable (LedgerDetails, TimeZone) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> (entry: SpendingEntry, created: Bool) {
        try await write { db in
            let details = try Self.details(ledger, of: user, db)
            // Built first: a body the rules refuse is refused even when its id was sent before.
            let (entry, note) = try build(details, try Self.settings(user, db).zone)
            for id in key.storedIDs {
                if let existing = try SpendingEntryRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM spendingEntry WHERE id = ? AND ledgerId = ?"),
                                                                   arguments: [id, ledger]) {
                    return (try Self.entry(existing, in: details, db), false)
                }
            }
            try Self.insert(entry, importKey: nil, ledger: ledger, db)
            try Self.changeTotals(of: ledger, db) { try $0.add(entry) }
            try Self.log(note, ledger: ledger, user: user, at: entry.createdAt, db)
            return (entry, true)
        }
    }

    public func importEntries(into target: ImportTarget, by user: UUID, at: Date, memberNames: [String], note: ActivityNote,
                              _ build: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int) {
        try await write { db in
            let ledger: UUID
            switch target {
            case .new(let new):
                try LedgerRecord(LedgerDetails(ledger: new, members: [], ownerID: nil, invite: nil, hasEntries: false)).insert(db)
                try Self.log(ActivityNote(Phrase("Created the ledger \(new.name).")), ledger: new.id, user: user, at: at, db)
                ledger = new.id
            case .existing(let id):
                _ = try Self.details(id, of: user, db)
                ledger = id
            }
            let linkFirst = if case .new = target { true } else { false }
            for (index, name) in memberNames.enumerated() {
                var record = LedgerMemberRecord(LedgerMember(id: 0, name: name, userID: linkFirst && index == 0 ? user : nil), ledger: ledger)
                try record.insert(db)
                // Whoever imports into a new ledger creates it, and so owns it (S1).
                if linkFirst && index == 0 {
                    try db.execute(sql: "UPDATE ledger SET ownerMemberId = ? WHERE id = ?", arguments: [record.id, ledger])
                }
            }
            let details = try Self.details(ledger, of: user, db)
            var added = 0
            try Self.changeTotals(of: ledger, db) { totals in
                for item in try build(details) {
                    let known = try Bool.fetchOne(db, sql: """
                        SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE id = ? OR (ledgerId = ? AND importKey = ?))
                        """, arguments: [item.entry.id, ledger, item.importKey]) ?? false
                    if known { continue }
                    try Self.insert(item.entry, importKey: item.importKey, ledger: ledger, db)
                    try totals.add(item.entry)
                    added += 1
                }
            }
            try Self.log(note, ledger: ledger, user: user, at: at, db)
            return (try Self.details(ledger, db), added)
        }
    }

    public func changeEntry(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                            _ change: @escaping @Sendable (inout SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry {
        try await write { db in
            let details = try Self.details(ledger, of: user, db)
            guard let record = try SpendingEntryRecord.filter(sql: "id = ? AND ledgerId = ?", arguments: [id, ledger]).fetchOne(db) else {
                throw StoreRefusal.noLedgerEntry(id)
            }
            let before = try Self.entry(record, in: details, db)
            var entry = before
            let note = try change(&entry, details)
            // A change to an entry leaves its receipt as it is.
            entry.receipt = before.receipt
            try SpendingEntryRecord(entry, ledger: ledger, importKey: record.importKey).update(db)
            try Self.changeTotals(of: ledger, db) { try $0.replace(before, with: entry) }
            try db.execute(sql: "DELETE FROM spendingShare WHERE entryId = ?", arguments: [id])
            for share in SpendingShareRecord.rows(of: entry) { try share.insert(db) }
            if before.hasSeveralPayers { try db.execute(sql: "DELETE FROM spendingPayer WHERE entryId = ?", arguments: [id]) }
            for payer in SpendingPayerRecord.rows(of: entry) { try payer.insert(db) }
            try Self.log(note, ledger: ledger, user: user, at: at, db)
            return entry
        }
    }

    public func entry(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> SpendingEntry {
        try await read { db in
            let details = try Self.details(ledger, of: user, db)
            guard let record = try SpendingEntryRecord.filter(sql: "id = ? AND ledgerId = ?", arguments: [id, ledger]).fetchOne(db) else {
                throw StoreRefusal.noLedgerEntry(id)
            }
            return try Self.entry(record, in: details, db)
        }
    }

    public func entries(in ledger: UUID, of user: UUID, _ listing: EntryListing, matching filter: EntryFilter, limit: Int?,
                        after: UUID?) async throws -> [SpendingEntry] {
        try await read { db in
            let details = try Self.details(ledger, of: user, db)
            return try Self.entries(in: details, listing, matching: filter, limit: limit, after: after, db)
        }
    }

    public func entryIDs(startingWith prefix: String, in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int) async throws -> [UUID] {
        try await read { db in
            _ = try Self.details(ledger, of: user, db)
            guard let range = IDPrefix(prefix) else { return [] }
            let filter = switch listing {
            case .current: "deletedAt IS NULL"
            case .deleted: "deletedAt IS NOT NULL"
            case .all: "1"
            }
            // `+ledgerId`: the key range is the index to search, not the ledger's whole history.
            return try UUID.fetchAll(db, sql: """
                SELECT id FROM spendingEntry WHERE id BETWEEN ? AND ? AND +ledgerId = ? AND \(filter) LIMIT ?
                """, arguments: [range.lowest, range.highest, ledger, limit])
        }
    }

    public func foreignSpending(in ledger: UUID, of user: UUID) async throws -> [ForeignSpending] {
        try await read { db in try Self.foreignSpending(in: try Self.details(ledger, of: user, db), db) }
    }

    static func foreignSpending(in details: LedgerDetails, _ db: Database) throws -> [ForeignSpending] {
        try Row.fetchAll(db.cachedStatement(sql: ForeignSpending.sql(ledger: "?1", sequence: "rowid")), arguments: [details.ledger.id]).map { row in
            try ForeignSpending(code: row[0], spent: row[1], inLedger: row[2], lastRate: row[3], ledger: details.ledger.currency)
        }
    }

    public func standing(of ledger: UUID, of user: UUID) async throws -> LedgerStanding {
        try await read { db in
            LedgerStanding(details: try Self.details(ledger, of: user, db), totals: try Self.totals(of: ledger, db))
        }
    }

    public func overview(of ledger: UUID, of user: UUID, matching filter: EntryFilter, limit: Int, after: UUID?,
                         deletedLimit: Int, spentSince: YearMonth) async throws -> LedgerOverview {
        try await read { db in
            let details = try Self.details(ledger, of: user, db)
            // One more than the page tells whether there is more.
            let page = try Self.entries(in: details, .current, matching: filter, limit: limit + 1, after: after, db)
            let deletedCount = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM spendingEntry WHERE ledgerId = ? AND deletedAt IS NOT NULL
                """), arguments: [ledger]) ?? 0
            return LedgerOverview(
                standing: LedgerStanding(details: details, totals: try Self.totals(of: ledger, db)),
                entries: Array(page.prefix(limit)), hasMore: page.count > limit,
                deleted: deletedCount == 0 ? [] : try Self.entries(in: details, .deleted, matching: .everything, limit: deletedLimit,
                                                                    after: nil, db),
                deletedCount: deletedCount,
                spent: try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT date / 100 AS month, category, sum(amount) AS amount FROM spendingEntry
                    WHERE ledgerId = ? AND deletedAt IS NULL AND kind = 'expense' AND date >= ?
                    GROUP BY date / 100, category ORDER BY date / 100, category
                    """), arguments: [ledger, spentSince.firstDay.number]).map { row in
                        let month: Int = row["month"]
                        return MonthlySpending(month: YearMonth(year: month / 100, month: month % 100)!, category: row["category"],
                                               amount: row["amount"])
                    },
                revision: try Self.revision(of: ledger, db),
                currencies: try Self.foreignSpending(in: details, db))
        }
    }

    public func revision(of ledger: UUID, of user: UUID) async throws -> Int64 {
        try await read { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM ledgerMember WHERE ledgerId = ? AND userId = ?)"),
                                    arguments: [ledger, user]) == true
            else { throw StoreRefusal.noLedger(ledger) }
            return try Self.revision(of: ledger, db)
        }
    }

    /// The activity log's latest line, which every change writes (`log`) in its transaction:
    /// SQLite's writers take turns, so a later line's id is always larger.
    static func revision(of ledger: UUID, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM ledgerActivity WHERE ledgerId = ?"), arguments: [ledger]) ?? 0
    }

    public func activity(in ledger: UUID, of user: UUID, limit: Int, offset: Int) async throws -> [LedgerActivity] {
        try await read { db in
            _ = try Self.details(ledger, of: user, db)
            return try Row.fetchAll(db, sql: """
                SELECT ledgerActivity.at, user.name, ledgerActivity.entryId, ledgerActivity.text, ledgerActivity.phrase
                FROM ledgerActivity LEFT JOIN user ON user.id = ledgerActivity.userId
                WHERE ledgerId = ? ORDER BY ledgerActivity.id DESC LIMIT ? OFFSET ?
                """, arguments: [ledger, limit, offset])
                .map { LedgerActivity(at: $0[0], actor: $0[1], entryID: $0[2], text: $0[3], phrase: ($0[4] as String?).flatMap(Phrase.init(stored:))) }
        }
    }

    public func latestOwnEntryCurrency(in ledger: UUID, of user: UUID, since: Date) async throws -> String? {
        try await read { db in
            let details = try Self.details(ledger, of: user, db)
            // An entry's first line in the log is its adding.
            let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT spendingEntry.originalCurrency FROM ledgerActivity
                JOIN spendingEntry ON spendingEntry.id = ledgerActivity.entryId
                WHERE ledgerActivity.ledgerId = ? AND ledgerActivity.userId = ? AND ledgerActivity.at >= ?
                  AND spendingEntry.deletedAt IS NULL
                  AND NOT EXISTS (SELECT 1 FROM ledgerActivity earlier
                                  WHERE earlier.entryId = ledgerActivity.entryId AND earlier.id < ledgerActivity.id)
                ORDER BY ledgerActivity.id DESC LIMIT 1
                """), arguments: [ledger, user, since])
            return row.map { ($0[0] as String?) ?? details.ledger.currency.code }
        }
    }

    // MARK: - Inside a transaction

    /// The ledger if `user` is one of its members; otherwise not found, whether or not it exists.
    static func details(_ id: UUID, of user: UUID, _ db: Database) throws -> LedgerDetails {
        let details = try details(id, db)
        guard details.member(of: user) != nil else { throw StoreRefusal.noLedger(id) }
        return details
    }

    /// Every request about a ledger starts here, so its statements are prepared once per
    /// connection rather than generated and parsed each time.
    /// `withRecurring: false` leaves recurring expenses out of `hasEntries`: for the migration
    /// that fills the totals (13), which runs before their table (18) exists.
    static func details(_ id: UUID, _ db: Database, withRecurring: Bool = true) throws -> LedgerDetails {
        guard let record = try LedgerRecord.fetchOne(db.cachedStatement(sql: "SELECT id, name, currency, createdAt, ownerMemberId FROM ledger WHERE id = ?"), arguments: [id])
        else { throw StoreRefusal.noLedger(id) }
        let members = try LedgerMemberRecord.fetchAll(
            db.cachedStatement(sql: "SELECT id, ledgerId, name, userId FROM ledgerMember WHERE ledgerId = ? ORDER BY id"), arguments: [id])
        // A recurring expense's amount is in the currency too.
        let hasEntries = try Bool.fetchOne(db.cachedStatement(sql: withRecurring ? """
            SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE ledgerId = ?1) OR EXISTS (SELECT 1 FROM recurringExpense WHERE ledgerId = ?1)
            """ : "SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE ledgerId = ?1)"), arguments: [id]) ?? false
        let invite = try LedgerInviteRecord.fetchOne(db.cachedStatement(sql: "SELECT codeHash, ledgerId, createdAt, expiresAt, usesLeft FROM ledgerInvite WHERE ledgerId = ?"), arguments: [id])
        return LedgerDetails(ledger: try record.ledger(), members: members.map(\.member), ownerID: record.ownerMemberId,
                             invite: invite?.invite, hasEntries: hasEntries)
    }

    /// The invite with this code hash while it may still be used.
    private static func validInvite(_ codeHash: Data, at: Date, _ db: Database) throws -> LedgerInviteRecord? {
        try LedgerInviteRecord.fetchOne(db, key: codeHash).flatMap { $0.invite.isValid(at: at) ? $0 : nil }
    }

    private static func save(_ after: LedgerDetails, replacing before: LedgerDetails, _ db: Database) throws {
        try LedgerRecord(after).update(db)
        let kept = Set(after.members.map(\.id))
        for gone in before.members where !kept.contains(gone.id) {
            let used = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM spendingEntry WHERE payerId = ?1) OR EXISTS (SELECT 1 FROM spendingShare WHERE memberId = ?1)
                    OR EXISTS (SELECT 1 FROM spendingPayer WHERE memberId = ?1)
                """, arguments: [gone.id]) ?? false
            try StoreRefusal.checkRemoval(of: gone, hasEntries: used, recurring: try recurringExpenses(of: before, db))
            try db.execute(sql: "DELETE FROM ledgerMember WHERE id = ?", arguments: [gone.id])
        }
        for member in after.members {
            var record = LedgerMemberRecord(member, ledger: after.ledger.id)
            try record.save(db)
        }
        if after.invite != before.invite {
            // One invite per ledger: a new one replaces the old, whose code then opens nothing.
            try db.execute(sql: "DELETE FROM ledgerInvite WHERE ledgerId = ?", arguments: [after.ledger.id])
            try after.invite.map { try LedgerInviteRecord($0, ledger: after.ledger.id).insert(db) }
        }
    }

    static func insert(_ entry: SpendingEntry, importKey: String?, ledger: UUID, _ db: Database) throws {
        try SpendingEntryRecord(entry, ledger: ledger, importKey: importKey).insert(db)
        for share in SpendingShareRecord.rows(of: entry) { try share.insert(db) }
        for payer in SpendingPayerRecord.rows(of: entry) { try payer.insert(db) }
    }

    static func entry(_ record: SpendingEntryRecord, in details: LedgerDetails, _ db: Database) throws -> SpendingEntry {
        let shares = try SpendingShareRecord.filter(sql: "entryId = ?", arguments: [record.id]).fetchAll(db)
        let payers = try SpendingPayerRecord.filter(sql: "entryId = ?", arguments: [record.id]).fetchAll(db)
        var entry = try record.entry(currency: details.ledger.currency, shares: shares, payers: payers, members: details.members)
        entry.receipt = try receiptFormats(of: [record.id], db)[record.id]
        return entry
    }

    /// What the receipts of these entries are kept as, for those that have one.
    static func receiptFormats(of entries: [UUID], _ db: Database) throws -> [UUID: ReceiptFormat] {
        guard !entries.isEmpty else { return [:] }
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT entryId, format FROM entryReceipt WHERE entryId IN (\(databaseQuestionMarks(count: entries.count)))"),
                                    arguments: StatementArguments(entries))
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["format"] as String?).flatMap(ReceiptFormat.init(rawValue:)).map { (row["entryId"] as UUID, $0) }
        })
    }

    static func log(_ note: ActivityNote, ledger: UUID, user: UUID?, at: Date, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO ledgerActivity (ledgerId, at, userId, entryId, text, phrase) VALUES (?, ?, ?, ?, ?, ?)")
            .execute(arguments: [ledger, at, user, note.entryID, note.text, note.phrase.stored])
    }

}
