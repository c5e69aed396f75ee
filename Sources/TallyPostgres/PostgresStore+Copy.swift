import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

/// How many rows of one table a copy found in each store.
public struct CopiedTable: Codable, Sendable, Equatable {
    public var table: String
    public var source: Int
    public var target: Int
}

extension PostgresStore {
    /// The SQLite tables in the order a copy writes them (what a row refers to comes first), with
    /// their names here. `dayTotal` is not copied: the triggers keep it as the drinks arrive, and
    /// its count is checked like the others'.
    static let copiedTables: [(sqlite: String, postgres: String, columns: [String: String])] = [
        ("user", "users", [:]), ("userSettings", "userSettings", [:]), ("userProfile", "userProfile", [:]),
        ("userBottle", "userBottle", [:]), ("userReminders", "userReminders", [:]), ("userCalendar", "userCalendar", [:]),
        ("drinkKind", "drinkKind", [:]), ("intake", "intake", [:]), ("removal", "removal", [:]), ("goal", "goal", [:]),
        ("session", "session", [:]), ("apiToken", "apiToken", [:]), ("serverSetting", "serverSetting", [:]),
        ("signUpInvite", "signUpInvite", [:]), ("signInAttempt", "signInAttempt", [:]), ("accountIdentity", "accountIdentity", [:]),
        ("ledger", "ledger", [:]), ("ledgerMember", "ledgerMember", [:]), ("ledgerInvite", "ledgerInvite", [:]),
        ("spendingEntry", "spendingEntry", [:]), ("spendingShare", "spendingShare", [:]),
        ("spendingPayer", "spendingPayer", [:]), ("entryReceipt", "entryReceipt", [:]),
        ("ledgerActivity", "ledgerActivity", [:]), ("memberTotal", "memberTotal", [:]),
        ("memberShareFraction", "memberShareFraction", [:]), ("recurringExpense", "recurringExpense", [:]),
        ("serverKey", "serverKey", [:]), ("pushSubscription", "pushSubscription", [:]), ("reminderSent", "reminderSent", [:]),
        ("asleepInterval", "asleepInterval", ["start": "startAt", "end": "endAt"]), ("importedDrink", "importedDrink", [:]),
    ]

    /// The SQLite tables a copy leaves out, and why.
    static let notCopied = [
        "dayTotal": "the triggers keep it as the drinks arrive",
        "ledgerBurst": "changes to a ledger not yet told to its members: a minute's worth, told by the server that stopped or not at all",
    ]

    /// Tables whose rows are large (a receipt is up to 10 MB), copied a few rows at a time.
    static let rowsPerBatch = ["entryReceipt": 8]

    /// Copies a whole installation from SQLite into this database, which must hold none yet, in
    /// one transaction: all of it or nothing. Every table's rows are counted in both stores before
    /// the copy commits, and a difference undoes it. Returns the counts.
    package func copy(from source: some TableRows, batchSize: Int = 2_000) async throws -> [CopiedTable] {
        try await write(locking: .server) { [self] connection in
            if try await connection.row("SELECT 1 FROM users LIMIT 1", logger: logger) != nil {
                throw TallyError.conflict("This PostgreSQL database holds a Tally installation already; copy into an empty one.")
            }
            // A ledger names its owner among its members, who come after it.
            try await connection.run("SET CONSTRAINTS ALL DEFERRED", logger: logger)
            var counts: [CopiedTable] = []
            for table in Self.copiedTables {
                let copied = try await copyTable(table.sqlite, into: table.postgres, renaming: table.columns,
                                                 from: source, batchSize: min(batchSize, Self.rowsPerBatch[table.sqlite] ?? batchSize),
                                                 connection)
                counts.append(copied)
            }
            // Days whose entries all went keep a row (with their revision) where they were deleted only.
            counts.append(CopiedTable(table: "dayTotal", source: try await source.rowCount(of: "dayTotal", where: "entryCount > 0"),
                                      target: try await count("dayTotal", where: "entryCount > 0", connection)))
            try await connection.run("SET CONSTRAINTS ALL IMMEDIATE", logger: logger)
            if let wrong = counts.first(where: { $0.source != $0.target }) {
                throw TallyError.conflict(
                    "The copy of \(wrong.table) holds \(wrong.target) rows where SQLite has \(wrong.source); nothing was copied.")
            }
            return counts
        }
    }

    private func copyTable(_ table: String, into target: String, renaming: [String: String], from source: some TableRows,
                           batchSize: Int, _ connection: PostgresConnection) async throws -> CopiedTable {
        let columns = try await source.columns(of: table)
        let types = try await columnTypes(of: target, connection)
        let targetColumns = columns.map { (renaming[$0] ?? $0).lowercased() }
        let casts = try targetColumns.map { column in
            guard let type = types[column] else {
                throw TallyError.conflict("The SQLite column \(table).\(column) has no place in PostgreSQL: is the file from a newer Tally?")
            }
            return type
        }
        // Numbered columns (a member's id, say) keep SQLite's numbers; then new rows follow them.
        let numbered = try await connection.rows("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(target.lowercased()) AND is_identity = 'YES'
            """, logger: logger).map { try $0.decode(String.self) }.filter(targetColumns.contains)
        var after: [StoredValue]?
        repeat {
            let batch = try await source.rows(of: table, columns: columns, after: after, limit: batchSize)
            after = batch.last
            guard !batch.rows.isEmpty else { break }
            var bindings = PostgresBindings(capacity: batch.rows.count * columns.count)
            var tuples: [String] = []
            for row in batch.rows {
                var placeholders: [String] = []
                for (value, type) in zip(row, casts) {
                    try Self.bind(value, as: type, into: &bindings)
                    placeholders.append("$\(bindings.count)::\(type)")
                }
                tuples.append("(" + placeholders.joined(separator: ", ") + ")")
            }
            let sql = "INSERT INTO \(target) (\(targetColumns.joined(separator: ", ")))"
                + (numbered.isEmpty ? "" : " OVERRIDING SYSTEM VALUE") + " VALUES " + tuples.joined(separator: ", ")
            try await connection.run(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger)
        } while after != nil
        for column in numbered {
            try await connection.run(PostgresQuery(unsafeSQL: """
                SELECT setval(pg_get_serial_sequence('\(target.lowercased())', '\(column)'), coalesce(max(\(column)), 0) + 1, false)
                FROM \(target)
                """), logger: logger)
        }
        return CopiedTable(table: table, source: try await source.rowCount(of: table), target: try await count(target, connection))
    }

    private func count(_ table: String, where condition: String = "true", _ connection: PostgresConnection) async throws -> Int {
        try await connection.row(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table) WHERE \(condition)"), logger: logger)?
            .decode(Int.self) ?? 0
    }

    /// Each column's type as a cast (`uuid`, `timestamptz`, `date`…).
    private func columnTypes(of table: String, _ connection: PostgresConnection) async throws -> [String: String] {
        var types: [String: String] = [:]
        for row in try await connection.rows("""
            SELECT column_name, udt_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table.lowercased())
            """, logger: logger) {
            let (column, type) = try row.decode((String, String).self)
            types[column] = type
        }
        return types
    }

    /// Binds a value as SQLite stored it, converted to what the PostgreSQL column holds: UUIDs
    /// from their 16 bytes, instants from GRDB's UTC text (read by PostgreSQL in the session's
    /// UTC), days from YYYYMMDD numbers, booleans from 0 and 1, shares from their exact text.
    static func bind(_ value: StoredValue, as type: String, into bindings: inout PostgresBindings) throws {
        switch (value, type) {
        case (.null, _):
            bindings.appendNull()
        case (.blob(let bytes), "uuid") where bytes.count == 16:
            bindings.append(UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case (.integer(let number), "date"):
            guard let day = LocalDate(year: Int(number / 10_000), month: Int(number / 100 % 100), day: Int(number % 100)) else {
                throw TallyError.invalid("\(number) is not a day (YYYYMMDD).")
            }
            bindings.append(day)
        case (.integer(let number), "bool"):
            bindings.append(number != 0)
        case (.integer(let number), "int2"), (.integer(let number), "int4"), (.integer(let number), "int8"):
            bindings.append(Int(number))
        case (.integer(let number), "float8"):
            bindings.append(Double(number))
        case (.real(let number), "float8"):
            bindings.append(number)
        case (.blob(let bytes), "bytea"):
            try bindings.append(bytes)
        case (.text(let text), _):
            bindings.append(text)
        case (.integer(let number), _):
            bindings.append(String(number))
        case (.real(let number), _):
            bindings.append(String(number))
        default:
            throw TallyError.invalid("A \(String(describing: value)) cannot go into a \(type) column.")
        }
    }
}
