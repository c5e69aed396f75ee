import Foundation
import GRDB
import TallyCore

enum Migration25Receipts: Migration {
    static let name = "25 receipts"

    static func migrate(_ db: Database) throws {
        // One receipt per entry, gone with it when it is removed for good. The bytes come last:
        // what lists read (the format, the small copy) is then read without the photo's pages.
        try db.create(table: "entryReceipt") { t in
            t.primaryKey("entryId", .blob).references("spendingEntry", onDelete: .cascade)
            t.column("format", .text).notNull()
            t.column("attachedAt", .datetime).notNull()
            t.column("thumbnail", .blob)
            t.column("bytes", .blob).notNull()
        }
    }
}
