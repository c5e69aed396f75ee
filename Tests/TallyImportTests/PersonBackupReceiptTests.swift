import Foundation
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyServices
import TallyStore
import Testing

/// A2: the receipts of a person's ledgers travel in their backup, and a restore brings them back
/// onto the restored entries, deleted ones too, a photo cleaned as an upload is; a backup whose
/// receipt is not one Tally keeps is refused before anything is written.
@Suite("A person's backup carries the receipts of their ledgers (A2)")
struct PersonBackupReceiptTests {
    typealias CSV = DrinkCSVTests
    typealias Backup = PersonBackupTests

    /// A phone's photo with its GPS position in EXIF, as a backup anyone could write may carry
    /// it: kept as it came, its small copy the photo itself.
    static let phonePhoto = (try? Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../TallyServerTests/Fixtures/Receipts/gps.jpg").standardized)) ?? Data()
    static let photo = ReceiptFile(format: .jpeg, bytes: phonePhoto, thumbnail: phonePhoto, attachedAt: CSV.instant("2026-05-20T09:15:00.250Z"))
    static let invoice = ReceiptFile(format: .pdf, bytes: Data("%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n".utf8), thumbnail: nil,
                                     attachedAt: CSV.instant("2026-05-21T18:00:00Z"))

    /// Ada, with a drink and a ledger Home (Ada, Sam): Groceries with a photo, Bread with no
    /// receipt, and a deleted Invoice with a PDF. Returns the backup.
    static func backupWithReceipts() async throws -> Data {
        let ada = try await CSV.person("ada")
        _ = try await ada.logDrink(.init(volumeMl: 250, at: CSV.instant("2026-05-20T08:00:00Z")))
        let spending = Backup.spending(ada)
        let home = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Ada", "Sam"]).ledger.id
        let groceries = try await spending.addExpense(to: home, .init(amount: .text("42.10"), description: "Groceries")).entry.id
        _ = try await spending.keepReceipt(photo, of: groceries, in: home)
        _ = try await spending.addExpense(to: home, .init(amount: .text("3.20"), description: "Bread"))
        let invoice = try await spending.addExpense(to: home, .init(amount: .text("80.00"), description: "Invoice")).entry.id
        _ = try await spending.keepReceipt(Self.invoice, of: invoice, in: home)
        _ = try await spending.deleteEntry(invoice, in: home)
        return try await Backup.backup(ada, spending)
    }

    /// The person's only ledger's entries by description, and the ledger.
    static func entries(of spending: SpendingService) async throws -> (ledger: UUID, byName: [String: SpendingEntry]) {
        let ledger = try #require(try await spending.ledgers().first).ledger.id
        let entries = try await spending.entries(in: ledger, .all)
        return (ledger, Dictionary(uniqueKeysWithValues: entries.map { ($0.description ?? "", $0) }))
    }

    @Test("A2: a restore into a new store brings back each receipt with its bytes, small copy, type and time, a deleted entry's too; an entry without one has none")
    func restoredWithTheirReceipts() async throws {
        let data = try await Self.backupWithReceipts()
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""receipt":"image/jpeg","receiptFile":{"attachedAt":"2026-05-20T09:15:00.25Z","data":"\#(Self.photo.bytes.base64EncodedString())","mediaType":"image/jpeg","thumbnail":"\#(Self.photo.thumbnail!.base64EncodedString())"}"#))

        let bob = try await CSV.person("bob", in: try SQLiteStore.inMemory())
        let spending = Backup.spending(bob)
        let report = try await PersonBackup.read(data).restore(merge: false, hydration: bob, spending: spending)
        #expect(report.ledgerEntriesAdded == 3)
        let (ledger, entries) = try await Self.entries(of: spending)
        let groceries = try #require(entries["Groceries"]), invoice = try #require(entries["Invoice"]), bread = try #require(entries["Bread"])
        #expect(groceries.receipt == .jpeg && invoice.receipt == .pdf && invoice.deletedAt != nil)
        // The photo is cleaned as an upload is: no EXIF (no GPS), a small copy made afresh, its time kept.
        let kept = try await spending.receipt(of: groceries.id, in: ledger)
        #expect(kept.format == .jpeg && kept.attachedAt == Self.photo.attachedAt)
        #expect(!kept.bytes.isEmpty && kept.bytes != Self.photo.bytes)
        #expect(kept.bytes.range(of: Data("Exif".utf8)) == nil && Self.photo.bytes.range(of: Data("Exif".utf8)) != nil)
        let small = try #require(try await spending.receipt(of: groceries.id, in: ledger, thumbnail: true).thumbnail)
        #expect(small != Self.photo.thumbnail && small.count < kept.bytes.count && small.range(of: Data("Exif".utf8)) == nil)
        #expect(try await spending.receipt(of: invoice.id, in: ledger) == Self.invoice)
        #expect(bread.receipt == nil)
        await #expect(throws: TallyError.notFound("This entry has no receipt.")) { try await spending.receipt(of: bread.id, in: ledger) }
        let activity = try await spending.activity(in: ledger).map(\.text)
        #expect(activity.filter { $0.hasPrefix("Restored the receipt of ") }.count == 2, "\(activity)")

        // Restored again, nothing comes twice; a receipt the restore left out (one that stopped
        // before them) comes back, and none is replaced.
        _ = try await spending.removeReceipt(of: groceries.id, in: ledger)
        let again = try await PersonBackup.read(data).restore(merge: true, hydration: bob, spending: spending)
        #expect(again.ledgerEntriesAdded == 0)
        #expect(try await spending.receipt(of: groceries.id, in: ledger).attachedAt == Self.photo.attachedAt)
        let after = try await spending.activity(in: ledger).map(\.text)
        #expect(after.filter { $0.hasPrefix("Restored the receipt of ") }.count == 3, "\(after)")
    }

    @Test("A2: a backup from before receipts were part of it (no receiptFile, or no receipt at all) restores, with none")
    func olderBackups() async throws {
        let data = try await Self.backupWithReceipts()
        for keys in [["receiptFile"], ["receiptFile", "receipt"]] {
            let older = try Self.editing(data) { entry in
                for key in keys { entry[key] = nil }
            }
            #expect(!String(decoding: older, as: UTF8.self).contains("receiptFile"))
            let bob = try await CSV.person("bob")
            let spending = Backup.spending(bob)
            let report = try await PersonBackup.read(older).restore(merge: false, hydration: bob, spending: spending)
            #expect(report.ledgerEntriesAdded == 3, "\(keys)")
            #expect(try await Self.entries(of: spending).byName.values.allSatisfy { $0.receipt == nil }, "\(keys)")
        }
    }

    @Test("A2: a receipt of a type Tally does not keep, not base64, too big, or not what it says it is, is refused naming its entry, and nothing is restored")
    func malformedReceiptsRefused() async throws {
        let data = try await Self.backupWithReceipts()
        let groceries = try #require(try PersonBackup.read(data).ledgers.first?.entries.first { $0.description == "Groceries" }).id
        let tooBig = (Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(count: ReceiptUpload.maximumBytes)).base64EncodedString()
        let cases: [(field: String, value: String, says: String)] = [
            ("mediaType", "image/gif", #"its receipt's mediaType "image/gif" is not one Tally keeps (image/jpeg, image/png or application/pdf)"#),
            ("data", "not base64!", "its receipt's data is not base64"),
            ("data", tooBig, "its receipt's data is bigger than 10 MB, the most a receipt can be"),
            ("data", Data("<html><script>alert(1)</script>".utf8).base64EncodedString(), "its receipt's data is not a file of the type image/jpeg"),
            ("thumbnail", "%%%", "its receipt's thumbnail is not base64"),
        ]
        for (field, value, says) in cases {
            let broken = try Self.editing(data) { entry in
                guard entry["description"] as? String == "Groceries", var file = entry["receiptFile"] as? [String: Any] else { return }
                file[field] = value
                entry["receiptFile"] = file
            }
            let kim = try await CSV.person("kim")
            let error = await #expect(throws: TallyError.self) {
                try await PersonBackup.read(broken).restore(merge: false, hydration: kim, spending: Backup.spending(kim))
            }
            #expect(error?.kind == .invalidInput)
            #expect(error?.message == "The backup's ledger \"Home\" cannot be restored: entry \(groceries): \(says)", "\(field)")
            #expect(try await Backup.spending(kim).ledgers().isEmpty, "\(field)")
            #expect(try await kim.store.dailyTotals(of: kim.user, from: nil, through: nil).isEmpty, "\(field)")
        }
    }

    @Test("A2: a restored photo is bounded as an upload is: one of 900 million pixels is refused naming its entry; the entries stay, to finish later")
    func hugePhotoRefused() async throws {
        let data = try await Self.backupWithReceipts()
        let groceries = try #require(try PersonBackup.read(data).ledgers.first?.entries.first { $0.description == "Groceries" }).id
        let huge = try Self.editing(data) { entry in
            guard entry["description"] as? String == "Groceries", var file = entry["receiptFile"] as? [String: Any] else { return }
            file["mediaType"] = "image/png"
            file["data"] = Self.png(width: 30000, height: 30000).base64EncodedString()
            entry["receiptFile"] = file
        }
        let kim = try await CSV.person("kim")
        let spending = Backup.spending(kim)
        let error = await #expect(throws: TallyError.self) {
            try await PersonBackup.read(huge).restore(merge: false, hydration: kim, spending: spending)
        }
        #expect(error?.kind == .tooLarge)
        #expect(error?.message.hasPrefix("The backup's entry \(groceries) has a receipt Tally cannot keep: This photo has more than 200 million pixels") == true,
                "\(error?.message ?? "")")
        let (_, entries) = try await Self.entries(of: spending)
        #expect(entries["Groceries"]?.receipt == nil, "the photo is not kept as it came")
    }

    /// A PNG that says it is `width` × `height` pixels (its header; its pixels are not there).
    static func png(width: UInt32, height: UInt32) -> Data {
        func chunk(_ kind: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(kind.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(AppleHealthZipTests.referenceCRC(typed))
        }
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let pixels: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", pixels) + chunk("IEND", []))
    }

    /// The backup with `edit` applied to each entry of each ledger, as JSON objects.
    static func editing(_ data: Data, _ edit: (inout [String: Any]) -> Void) throws -> Data {
        var document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var ledgers = try #require(document["ledgers"] as? [[String: Any]])
        for index in ledgers.indices {
            var entries = try #require(ledgers[index]["entries"] as? [[String: Any]])
            for entry in entries.indices { edit(&entries[entry]) }
            ledgers[index]["entries"] = entries
        }
        document["ledgers"] = ledgers
        return try JSONSerialization.data(withJSONObject: document)
    }
}
