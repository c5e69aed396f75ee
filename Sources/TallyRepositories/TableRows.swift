import Foundation

/// A value as a store holds it, for copying a whole installation to another store.
package enum StoredValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A store whose tables can be read row by row as they are kept: the source of a copy into
/// another store (`tally migrate-store`), which knows nothing else of it.
package protocol TableRows: Sendable {
    /// The columns of `table`, in their order.
    func columns(of table: String) async throws -> [String]
    func rowCount(of table: String, where condition: String) async throws -> Int
    /// A batch of `limit` rows after the row whose key is `after`, in key order, and the key of
    /// the last one.
    func rows(of table: String, columns: [String], after: [StoredValue]?, limit: Int) async throws
        -> (rows: [[StoredValue]], last: [StoredValue]?)
}

extension TableRows {
    package func rowCount(of table: String) async throws -> Int {
        try await rowCount(of: table, where: "1 = 1")
    }
}
