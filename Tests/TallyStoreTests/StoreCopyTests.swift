import Foundation
import TallyCore
@testable import TallyPostgres
@testable import TallyRepositories
@testable import TallyServices
@testable import TallyStore
import Testing

/// `tally migrate-store`: a whole installation copied from its SQLite file into an empty
/// PostgreSQL database (`PostgresStore.copy(from:)`). Tests/instances/test_migrate_store.py runs
/// the command on everything else an installation holds.
@Suite("Copying an installation to PostgreSQL")
struct StoreCopyTests {
    @Test("Receipts arrive byte for byte, a few rows at a time, and are counted with the other tables")
    func receipts() async throws {
        // setup: a SQLite installation whose ledger has 21 expenses; 20 have a receipt, more than two
        // batches of rows, one replaced and one removed (a gap in the rows' order)
        let l = try await LedgerFixture(.sqliteFile)
        let source = try #require(l.f.store as? SQLiteStore)
        let ledger = try await l.shared().ledger.id
        #expect(PostgresStore.rowsPerBatch["entryReceipt"] == 8)
        var kept: [UUID: ReceiptFile] = [:]
        func keep(_ receipt: ReceiptFile?, of entry: UUID) async throws {
            _ = try await source.keepReceipt(receipt, of: entry, in: ledger, by: l.alex.user, at: l.f.clock.now) { entry, _ in
                ActivityNote("Attached a receipt to \(entry.description ?? "?").", entryID: entry.id)
            }
            kept[entry] = receipt
        }
        for number in 1...21 {
            let entry = try await l.expense("\(number).50", by: number.isMultiple(of: 2) ? l.sam : l.alex, in: ledger, "Shop \(number)")
            let at = l.f.clock.now + Double(number)
            try await keep(number.isMultiple(of: 5) ? ReceiptFile.pdf(UInt8(number), at: at) : ReceiptFile.photo(UInt8(number), at: at), of: entry.id)
        }
        let entries = try await source.entries(in: ledger, of: l.alex.user, .current, matching: .everything, limit: nil, after: nil)
        let third = try #require(entries.first { $0.description == "Shop 3" }?.id)
        let seventh = try #require(entries.first { $0.description == "Shop 7" }?.id)
        try await keep(.pdf(99, at: l.f.clock.now + 100), of: third)
        try await keep(nil, of: seventh)
        #expect(kept.count == 20)
        // One photo of the size a phone's is once cleaned, among the small ones.
        let large = ReceiptFile(format: .jpeg, bytes: Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }),
                                thumbnail: Data(repeating: 0xAB, count: 12_000), attachedAt: l.f.clock.now + 200)
        try await keep(large, of: try #require(entries.first { $0.description == "Shop 12" }?.id))
        let target = try #require(try await StoreKind.postgres.makeStore() as? PostgresStore)
        defer { target.close() }

        // act
        let counts = try await target.copy(from: source)

        // check: every table's rows counted in both, the receipts among them
        #expect(counts.first { $0.table == "entryReceipt" } == CopiedTable(table: "entryReceipt", source: 20, target: 20))
        #expect(counts.filter { $0.source != $0.target }.isEmpty, "\(counts)")
        #expect(counts.first { $0.table == "spendingEntry" }?.target == 21)
        // each receipt as SQLite kept it, to the byte, its small copy and its time too, for any member
        for (entry, receipt) in kept {
            #expect(try await target.receipt(of: entry, in: ledger, of: l.sam.user, thumbnail: false) == receipt, "\(entry)")
            let small = try await target.receipt(of: entry, in: ledger, of: l.alex.user, thumbnail: true)
            #expect(small?.thumbnail == receipt.thumbnail && small?.bytes == Data(), "\(entry)")
        }
        #expect(try await target.receipt(of: seventh, in: ledger, of: l.alex.user, thumbnail: false) == nil, "a removed receipt stays removed")
        // and every read of the copied entries names the formats SQLite does
        let copied = try await target.entries(in: ledger, of: l.alex.user, .current, matching: .everything, limit: nil, after: nil)
        #expect(receiptFormats(copied) == kept.mapValues(\.format))
        #expect(receiptFormats(copied) == receiptFormats(try await source.entries(in: ledger, of: l.alex.user, .current,
                                                                                   matching: .everything, limit: nil, after: nil)))
        #expect(try await target.entry(third, in: ledger, of: l.sam.user).receipt == .pdf)

        // The copy goes on living: a receipt replaced on PostgreSQL.
        let photo = ReceiptFile.photo(7, at: l.f.clock.now + 300)
        _ = try await target.keepReceipt(photo, of: seventh, in: ledger, by: l.sam.user, at: l.f.clock.now + 300) { entry, _ in
            ActivityNote("Attached a receipt.", entryID: entry.id)
        }
        #expect(try await target.receipt(of: seventh, in: ledger, of: l.alex.user, thumbnail: false) == photo)
    }

    @Test("Every SQLite table is copied but those a copy leaves out on purpose; an account's provider link arrives and still signs it in")
    func everyTableAndProviderLinks() async throws {
        let f = try await Fixture(.sqliteFile)
        let source = try #require(f.store as? SQLiteStore)
        let tables = try await source.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        }
        #expect(Set(tables).subtracting(PostgresStore.notCopied.keys) == Set(PostgresStore.copiedTables.map(\.sqlite)))

        let ada = try await f.account("ada-linked")
        let subject = ProviderSubject(issuer: "https://id.example.com", subject: "24400320")
        try await source.link(ada.user.id, to: subject, at: f.clock.now)
        let target = try #require(try await StoreKind.postgres.makeStore() as? PostgresStore)
        defer { target.close() }

        let counts = try await target.copy(from: source)

        #expect(counts.first { $0.table == "accountIdentity" } == CopiedTable(table: "accountIdentity", source: 1, target: 1))
        #expect(try await target.account(linkedTo: subject)?.user.id == ada.user.id)
    }
}
