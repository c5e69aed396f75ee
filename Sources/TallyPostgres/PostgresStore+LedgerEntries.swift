import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Expenses and payments (S2, S4, S5). Each change writes the entry, its shares, the kept totals
// and the activity log in one transaction, under the ledger's lock.

extension PostgresStore {
    public func addEntry(_ key: LedgerEntryKey, to ledger: UUID, by user: UUID,
                         _ build: @escaping @Sendable (LedgerDetails, TimeZone) throws -> (entry: SpendingEntry, note: ActivityNote)) async throws -> (entry: SpendingEntry, created: Bool) {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await self.details(ledger, of: user, connection)
            // Built first: a body the rules refuse is refused even when its id was sent before.
            let (entry, note) = try build(details, try await settings(user, connection).zone)
            if let stored = try await connection.row("""
                SELECT id FROM spendingEntry WHERE id = ANY(\(key.storedIDs)) AND ledgerId = \(ledger) ORDER BY id = \(key.id) DESC LIMIT 1
                """, logger: logger) {
                return (try await self.entry(try stored.decode(UUID.self), in: details, connection), false)
            }
            // Another ledger's entry with this id, written since the check, is a clash too.
            guard try await insert(entry, importKey: nil, ledger: ledger, connection) else { throw StoreRefusal.idTaken(entry.id) }
            try await changeTotals(of: ledger, connection) { try $0.add(entry) }
            try await log(note, ledger: ledger, user: user, at: entry.createdAt, connection)
            return (entry, true)
        }
    }

    public func importEntries(into target: ImportTarget, by user: UUID, at: Date, memberNames: [String], note: ActivityNote,
                              _ build: @escaping @Sendable (LedgerDetails) throws -> [ImportedEntry]) async throws -> (details: LedgerDetails, added: Int) {
        let ledger = switch target {
        case .new(let new): new.id
        case .existing(let id): id
        }
        return try await write(locking: .ledger(ledger)) { [self] connection in
            switch target {
            case .new(let new):
                try await insertLedger(new, connection)
                try await log(ActivityNote(Phrase("Created the ledger \(new.name).")), ledger: ledger, user: user, at: at, connection)
            case .existing:
                _ = try await details(ledger, of: user, connection)
            }
            let linkFirst = if case .new = target { true } else { false }
            for (index, name) in memberNames.enumerated() {
                let linked = linkFirst && index == 0
                let member = try await saveMember(LedgerMember(id: 0, name: name, userID: linked ? user : nil), of: ledger, connection)
                // Whoever imports into a new ledger creates it, and so owns it (S1).
                if linked {
                    try await connection.run("UPDATE ledger SET ownerMemberId = \(member.id) WHERE id = \(ledger)", logger: logger)
                }
            }
            let details = try await self.details(ledger, of: user, connection)
            var added = 0
            let entries = try build(details)
            try await changeTotals(of: ledger, connection) { totals in
                for item in entries {
                    // An entry whose id or import key is already stored is left out.
                    guard try await insert(item.entry, importKey: item.importKey, ledger: ledger, connection) else { continue }
                    try totals.add(item.entry)
                    added += 1
                }
            }
            try await log(note, ledger: ledger, user: user, at: at, connection)
            return (try await self.details(ledger, connection), added)
        }
    }

    public func changeEntry(_ id: UUID, in ledger: UUID, by user: UUID, at: Date,
                            _ change: @escaping @Sendable (inout SpendingEntry, LedgerDetails) throws -> ActivityNote) async throws -> SpendingEntry {
        try await write(locking: .ledger(ledger)) { [self] connection in
            let details = try await self.details(ledger, of: user, connection)
            let before = try await self.entry(id, in: details, connection)
            var entry = before
            let note = try change(&entry, details)
            // A change to an entry leaves its receipt as it is.
            entry.receipt = before.receipt
            let (parts, payers, original) = (entry.split.parts, Self.severalPayers(of: entry), entry.storedOriginal)
            // The entry, its shares and payers in one statement: the shares and payers it no
            // longer has go, the others are written (the two never touch the same row).
            try await connection.run("""
                WITH entry AS (
                    UPDATE spendingEntry SET kind = \(entry.kind.rawValue), amount = \(entry.amount.minorUnits), payerId = \(entry.payer),
                        date = \(entry.date), description = \(entry.description), searchKey = \(entry.description.map(UserText.searchKey)),
                        category = \(entry.category),
                        splitMethod = \(entry.split.method.rawValue), createdAt = \(entry.createdAt), deletedAt = \(entry.deletedAt),
                        originalAmount = \(original?.amount), originalCurrency = \(original?.currency), rate = \(original?.rate)
                    WHERE id = \(id)),
                gone AS (DELETE FROM spendingShare WHERE entryId = \(id) AND memberId <> ALL(\(parts.map(\.member)))),
                goneFromPayers AS (DELETE FROM spendingPayer WHERE entryId = \(id) AND memberId <> ALL(\(payers.members))),
                paid AS (
                    INSERT INTO spendingPayer (entryId, memberId, paid)
                    SELECT \(id), memberId, paid FROM unnest(\(payers.members), \(payers.paid)) AS payer (memberId, paid)
                    ON CONFLICT (entryId, memberId) DO UPDATE SET paid = excluded.paid)
                INSERT INTO spendingShare (entryId, memberId, value)
                SELECT \(id), memberId, value::numeric FROM unnest(\(parts.map(\.member)), \(parts.map(\.storedValue))) AS share (memberId, value)
                ON CONFLICT (entryId, memberId) DO UPDATE SET value = excluded.value
                """, logger: logger)
            try await changeTotals(of: ledger, connection) { try $0.replace(before, with: entry) }
            try await log(note, ledger: ledger, user: user, at: at, connection)
            return entry
        }
    }

    public func entry(_ id: UUID, in ledger: UUID, of user: UUID) async throws -> SpendingEntry {
        try await read { [self] connection in try await entry(id, in: try await details(ledger, of: user, connection), connection) }
    }

    public func entries(in ledger: UUID, of user: UUID, _ listing: EntryListing, matching filter: EntryFilter, limit: Int?,
                        after: UUID?) async throws -> [SpendingEntry] {
        try await read { [self] connection in
            try await entries(in: try await details(ledger, of: user, connection), listing, matching: filter, limit: limit,
                              after: after, connection)
        }
    }

    public func entryIDs(startingWith prefix: String, in ledger: UUID, of user: UUID, _ listing: EntryListing, limit: Int) async throws -> [UUID] {
        try await read { [self] connection in
            _ = try await details(ledger, of: user, connection)
            guard let (lowest, highest) = IDPrefix(prefix)?.ids else { return [] }
            // A uuid's order is its 16 bytes' order, so the prefix is a range of the primary key.
            return try await connection.rows("""
                SELECT id FROM spendingEntry
                WHERE id BETWEEN \(lowest) AND \(highest)
                    AND ledgerId = \(ledger) AND \(unescaped: listing.filter)
                ORDER BY id LIMIT \(limit)
                """, logger: logger).map { try $0.decode(UUID.self) }
        }
    }

    public func overview(of ledger: UUID, of user: UUID, matching filter: EntryFilter, limit: Int, after: UUID?,
                         deletedLimit: Int, spentSince: YearMonth) async throws -> LedgerOverview {
        try await read { [self] connection in
            let details = try await self.details(ledger, of: user, connection)
            // One more than the page tells whether there is more.
            let page = try await entries(in: details, .current, matching: filter, limit: limit + 1, after: after, connection)
            let deletedCount = try await connection.row("""
                SELECT count(*) FROM spendingEntry WHERE ledgerId = \(ledger) AND deletedAt IS NOT NULL
                """, logger: logger)?.decode(Int.self) ?? 0
            return LedgerOverview(
                standing: LedgerStanding(details: details, totals: try await totals(of: ledger, connection)),
                entries: Array(page.prefix(limit)), hasMore: page.count > limit,
                deleted: deletedCount == 0 ? [] : try await entries(in: details, .deleted, matching: .everything, limit: deletedLimit,
                                                                    after: nil, connection),
                deletedCount: deletedCount,
                spent: try await connection.rows("""
                    SELECT extract(year FROM date)::int * 100 + extract(month FROM date)::int AS month,
                        category COLLATE "C", sum(amount)::bigint FROM spendingEntry
                    WHERE ledgerId = \(ledger) AND deletedAt IS NULL AND kind = 'expense' AND date >= \(spentSince.firstDay)
                    GROUP BY 1, 2 ORDER BY 1, 2 NULLS FIRST
                    """, logger: logger).map { row in
                        let (month, category, amount) = try row.decode((Int, String?, Int64).self)
                        return MonthlySpending(month: YearMonth(year: month / 100, month: month % 100)!, category: category, amount: amount)
                    },
                revision: try await revision(of: ledger, connection),
                currencies: try await foreignSpending(in: details, connection))
        }
    }

    // MARK: - Inside a transaction

    /// A page of entries in the listing's order, after the entry `after`: a keyset on the
    /// history index, so that a page costs the same at the start of a ledger as deep inside it.
    func entries(in details: LedgerDetails, _ listing: EntryListing, matching search: EntryFilter, limit: Int?, after: UUID?,
                 _ connection: PostgresConnection) async throws -> [SpendingEntry] {
        let ledger = details.ledger.id
        // The statement is put together with its binds, since which conditions it has varies.
        var binds = PostgresBindings()
        func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
        var sql = """
            SELECT \(Self.entryColumns) FROM spendingEntry WHERE spendingEntry.ledgerId = \(bind(ledger)) AND \(listing.filter)
            """
        if let after {
            // Where the page before ended: the cursor entry's place in the listing's order,
            // read once before the scan (as a subquery, not a join, so that the index scan
            // starts there rather than filtering its way to it).
            sql += """
                 AND (\(listing.key("spendingEntry"))) < (SELECT \(listing.key("cursor")) FROM spendingEntry AS cursor
                    WHERE cursor.id = \(bind(after)) AND cursor.ledgerId = \(bind(ledger)))
                """
        }
        if let words = search.words { sql += " AND strpos(spendingEntry.searchKey, \(bind(words))) > 0" }
        if let member = search.member {
            let member = bind(member)
            sql += """
                 AND (spendingEntry.payerId = \(member)
                    OR EXISTS (SELECT 1 FROM spendingShare WHERE entryId = spendingEntry.id AND memberId = \(member))
                    OR EXISTS (SELECT 1 FROM spendingPayer WHERE entryId = spendingEntry.id AND memberId = \(member)))
                """
        }
        if let category = search.category { sql += " AND spendingEntry.category = \(bind(category))" }
        if let from = search.from { sql += " AND spendingEntry.date >= \(bind(from))" }
        if let through = search.through { sql += " AND spendingEntry.date <= \(bind(through))" }
        sql += " ORDER BY \(listing.order)"
        if let limit { sql += " LIMIT \(bind(limit))" }
        let rows = try await connection.rows(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        // An empty page may be the end, or a cursor that names nothing here.
        if rows.isEmpty, let after,
           try await connection.row("SELECT 1 FROM spendingEntry WHERE id = \(after) AND ledgerId = \(ledger)", logger: logger) == nil {
            throw StoreRefusal.noCursor(after)
        }
        return try rows.map { try Self.entry($0, in: details) }
    }

    /// One entry of the ledger.
    func entry(_ id: UUID, in details: LedgerDetails, _ connection: PostgresConnection) async throws -> SpendingEntry {
        guard let row = try await connection.row("""
            SELECT \(unescaped: Self.entryColumns) FROM spendingEntry WHERE id = \(id) AND ledgerId = \(details.ledger.id)
            """, logger: logger) else {
            throw StoreRefusal.noLedgerEntry(id)
        }
        return try Self.entry(row, in: details)
    }

    /// Stores an entry with its shares, in one statement; false, writing nothing, when its id
    /// (in any ledger) or its import key (in this one) is already stored.
    func insert(_ entry: SpendingEntry, importKey: String?, ledger: UUID, _ connection: PostgresConnection) async throws -> Bool {
        let (parts, payers, original) = (entry.split.parts, Self.severalPayers(of: entry), entry.storedOriginal)
        return try await connection.row("""
            WITH entry AS (
                INSERT INTO spendingEntry (id, ledgerId, kind, amount, payerId, date, description, searchKey, category, splitMethod,
                    createdAt, deletedAt, importKey, originalAmount, originalCurrency, rate)
                VALUES (\(entry.id), \(ledger), \(entry.kind.rawValue), \(entry.amount.minorUnits), \(entry.payer), \(entry.date),
                    \(entry.description), \(entry.description.map(UserText.searchKey)), \(entry.category), \(entry.split.method.rawValue),
                    \(entry.createdAt), \(entry.deletedAt), \(importKey), \(original?.amount), \(original?.currency), \(original?.rate))
                ON CONFLICT DO NOTHING
                RETURNING id),
            paid AS (
                INSERT INTO spendingPayer (entryId, memberId, paid)
                SELECT entry.id, payer.memberId, payer.paid FROM entry, unnest(\(payers.members), \(payers.paid)) AS payer (memberId, paid))
            INSERT INTO spendingShare (entryId, memberId, value)
            SELECT entry.id, share.memberId, share.value::numeric
            FROM entry, unnest(\(parts.map(\.member)), \(parts.map(\.storedValue))) AS share (memberId, value)
            RETURNING 1
            """, logger: logger) != nil
    }

    /// An entry's columns, its shares in member order (a value as exact decimal text) and its
    /// several payers' members and what they paid (empty when one member paid it all): what
    /// `entry(_:in:)` reads.
    private static let entryColumns = """
        spendingEntry.id, spendingEntry.kind, spendingEntry.amount, spendingEntry.payerId, spendingEntry.date,
        spendingEntry.description, spendingEntry.category, spendingEntry.splitMethod, spendingEntry.createdAt,
        spendingEntry.deletedAt, spendingEntry.originalAmount, spendingEntry.originalCurrency, spendingEntry.rate,
        ARRAY(SELECT memberId FROM spendingShare WHERE entryId = spendingEntry.id ORDER BY memberId),
        ARRAY(SELECT value::text FROM spendingShare WHERE entryId = spendingEntry.id ORDER BY memberId),
        ARRAY(SELECT memberId FROM spendingPayer WHERE entryId = spendingEntry.id ORDER BY memberId),
        ARRAY(SELECT paid FROM spendingPayer WHERE entryId = spendingEntry.id ORDER BY memberId),
        (SELECT format FROM entryReceipt WHERE entryId = spendingEntry.id)
        """

    /// What each of an entry's several payers paid, as two arrays; empty when one member paid it all.
    private static func severalPayers(of entry: SpendingEntry) -> (members: [MemberID], paid: [Int64]) {
        guard entry.hasSeveralPayers else { return ([], []) }
        return (entry.typedPayers.map(\.member), entry.typedPayers.map(\.amount.minorUnits))
    }

    /// The stored entry of the ledger, rebuilt through the same checks it passed when written.
    private static func entry(_ row: PostgresRow, in details: LedgerDetails) throws -> SpendingEntry {
        let (id, kind, amount, payer, date, description, category, splitMethod, createdAt, deletedAt,
             originalAmount, originalCurrency, rate, members, values, payers, paid, receipt)
            = try row.decode((UUID, String, Int64, MemberID, LocalDate, String?, String?, String, Date, Date?,
                              Int64?, String?, String?, [MemberID], [String], [MemberID], [Int64], String?).self)
        var entry = try SpendingEntry.stored(
            id: id, kind: kind, amount: amount, currency: details.ledger.currency, payer: payer,
            payers: zip(payers, paid).map { ($0, $1) }, date: date,
            description: description, category: category, splitMethod: splitMethod, createdAt: createdAt, deletedAt: deletedAt,
            shares: zip(members, values).map { ($0, $1) },
            original: StoredOriginal(amount: originalAmount, currency: originalCurrency, rate: rate), members: details.members)
        entry.receipt = receipt.flatMap(ReceiptFormat.init(rawValue:))
        return entry
    }

}

private extension EntryListing {
    /// Which entries of the ledger the listing holds.
    var filter: String {
        switch self {
        case .current: "spendingEntry.deletedAt IS NULL"
        case .deleted: "spendingEntry.deletedAt IS NOT NULL"
        case .all: "true"
        }
    }

    /// The listing's order, newest first, on its index (`spendingEntry_history` or `_deleted`).
    /// Of two entries of one day and instant (an import), the one written later is the newer.
    var order: String {
        switch self {
        case .current, .all: "spendingEntry.date DESC, spendingEntry.createdAt DESC, spendingEntry.seq DESC"
        case .deleted: "spendingEntry.deletedAt DESC, spendingEntry.seq DESC"
        }
    }

    /// The columns of `order` of the entry `table` names, to compare an entry's place with a cursor's.
    func key(_ table: String) -> String {
        switch self {
        case .current, .all: "\(table).date, \(table).createdAt, \(table).seq"
        case .deleted: "\(table).deletedAt, \(table).seq"
        }
    }
}
