import Foundation
import GRDB
import Testing

/// `tally backup FILE`: SQLite's online copy of the whole database. Tests/backup/test_online_backup.py
/// runs it under load; here, what the copy keeps.
@Suite("tally backup")
struct BackupCommandTests {
    @Test("A backup keeps every receipt byte for byte, and opens as a database whose expenses name them")
    func keepsReceipts() throws {
        // setup: two expenses, with a photo and a PDF as the store keeps them. The command line
        // attaches no receipts (the server does), so they are written into the database's own table.
        let tally = try Sandbox(now: "2026-11-21T10:00:00Z")
        try tally.ok(["ledger", "create", "Home", "--member", "Alex", "--member", "Sam"])
        func spend(_ amount: String, _ description: String) throws -> UUID {
            let id = try tally.object(["spend", amount, description])["id"] as? String
            return try #require(id.flatMap(UUID.init(uuidString:)))
        }
        let dinner = try spend("42.50", "Dinner"), bread = try spend("3.20", "Bread")
        // A photo larger than many of SQLite's pages, with no run that repeats.
        let photo = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) })
        let thumbnail = Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x01, 0xFF, 0xD9])
        let pdf = Data("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n".utf8)
        let attachedAt = try #require(ISO8601DateFormatter().date(from: "2026-11-21T10:00:00Z"))
        let live = try DatabaseQueue(path: tally.database)
        try live.write { db in
            for (entry, format, small, bytes) in [(dinner, "image/jpeg", thumbnail as Data?, photo), (bread, "application/pdf", nil, pdf)] {
                try db.execute(sql: "INSERT INTO entryReceipt (entryId, format, attachedAt, thumbnail, bytes) VALUES (?, ?, ?, ?, ?)",
                               arguments: [entry, format, attachedAt, small, bytes])
            }
        }
        try live.close()
        let copy = tally.folder.appendingPathComponent("backups/tally.sqlite").path

        // act
        let report = try tally.object(["backup", copy])

        // check: the copy passed its check and holds each receipt as it was
        #expect(report["integrity"] as? String == "ok")
        var readOnly = Configuration()
        readOnly.readonly = true
        let backup = try DatabaseQueue(path: copy, configuration: readOnly)
        let rows = try backup.read { db in
            try Row.fetchAll(db, sql: "SELECT entryId, format, attachedAt, thumbnail, bytes FROM entryReceipt")
        }
        try backup.close()
        let receipts = Dictionary(uniqueKeysWithValues: rows.map { row in (row["entryId"] as UUID, row) })
        #expect(receipts.count == 2)
        let kept = try #require(receipts[dinner]), keptPDF = try #require(receipts[bread])
        #expect(kept["bytes"] as Data == photo, "the photo's bytes")
        #expect(kept["thumbnail"] as Data? == thumbnail && kept["format"] as String == "image/jpeg")
        #expect(kept["attachedAt"] as Date == attachedAt)
        #expect(keptPDF["bytes"] as Data == pdf && keptPDF["thumbnail"] as Data? == nil && keptPDF["format"] as String == "application/pdf")
        // and Tally, opening the copy, lists each expense with its receipt's format
        let listed = try tally.ok(["expenses", "list", "--json"], env: ["TALLY_DATABASE": copy]).stdout
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let formats = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
            (entry["id"] as? String).map { ($0.lowercased(), entry["receipt"] as? String ?? "none") }
        })
        #expect(formats == [dinner.uuidString.lowercased(): "image/jpeg", bread.uuidString.lowercased(): "application/pdf"])
    }
}
