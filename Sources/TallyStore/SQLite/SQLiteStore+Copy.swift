import Foundation
import GRDB
import TallyRepositories


extension SQLiteStore: TableRows {
    /// The columns of `table`, in their order.
    package func columns(of table: String) async throws -> [String] {
        try await read { db in try db.columns(in: table).map(\.name) }
    }

    package func rowCount(of table: String, where condition: String) async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(condition)") ?? 0 }
    }

    /// The rows of `table` after `after` (the key of the last row of the batch before; nil for
    /// the first), at most `limit`, in the order they were written (rowid) or, in a table without
    /// rowids, of their primary key: each batch costs what it holds, however large the table.
    /// Returns the rows and the key of the last one.
    package func rows(of table: String, columns: [String], after: [StoredValue]?, limit: Int) async throws
        -> (rows: [[StoredValue]], last: [StoredValue]?) {
        try await read { db in
            let hasRowID = (try? db.execute(sql: "SELECT rowid FROM \(table.quotedDatabaseIdentifier) LIMIT 0")) != nil
            let key = hasRowID ? ["rowid"] : try db.primaryKey(table).columns
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let keyList = hasRowID ? "rowid" : key.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            var sql = "SELECT \(list), \(keyList) FROM \(table.quotedDatabaseIdentifier)"
            var arguments: [DatabaseValue] = []
            if let after {
                sql += " WHERE (\(keyList)) > (\(Array(repeating: "?", count: key.count).joined(separator: ", ")))"
                arguments = after.map(\.databaseValue)
            }
            sql += " ORDER BY \(keyList) LIMIT \(limit)"
            var rows: [[StoredValue]] = []
            var last: [StoredValue]?
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try cursor.next() {
                let values = row.databaseValues.map(StoredValue.init)
                rows.append(Array(values.prefix(columns.count)))
                last = Array(values.suffix(key.count))
            }
            return (rows, last)
        }
    }
}

extension StoredValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }
}
