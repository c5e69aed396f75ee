import Foundation
import TallyAPI
import TallyCore
@testable import TallyImport
import TallyServices
import Testing

/// S6: a ledger's JSON export carries each entry's receipt, its bytes in base64.
@Suite("A ledger's JSON export carries its receipts (S6)")
struct LedgerExportReceiptTests {
    @Test("S6: an entry's receipt is in the JSON export with its very bytes, small copy and type; an entry without one has no receiptFile")
    func receiptInTheExport() async throws {
        let spending = try await IHateMoneyImportTests.service()
        let ledger = try await spending.createLedger(name: "Home", currency: "EUR", memberNames: ["Alex", "Sam"]).ledger.id
        let lunch = try await spending.addExpense(to: ledger, .init(amount: .text("18.40"), description: "Lunch")).entry.id
        _ = try await spending.addExpense(to: ledger, .init(amount: .text("2.00"), description: "Coffee"))
        let without = try await LedgerExport.data(of: ledger, format: .json, spending: spending)
        // A photo of 300 kB (a PNG's signature, then anything: the export reads no image).
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = ReceiptFile(format: .png, bytes: png, thumbnail: Data([0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3]),
                               attachedAt: Date(timeIntervalSince1970: 1_780_000_000))
        _ = try await spending.keepReceipt(file, of: lunch, in: ledger)

        let json = try await LedgerExport.data(of: ledger, format: .json, spending: spending)
        let entries = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["entries"] as? [[String: Any]])
        let exported = try #require(entries.first { $0["description"] as? String == "Lunch" })
        let receipt = try #require(exported["receiptFile"] as? [String: Any])
        #expect(exported["receipt"] as? String == "image/png" && receipt["mediaType"] as? String == "image/png")
        #expect(receipt["attachedAt"] as? String == "2026-05-28T20:26:40Z")
        #expect(Data(base64Encoded: try #require(receipt["data"] as? String)) == png)
        #expect(Data(base64Encoded: try #require(receipt["thumbnail"] as? String)) == file.thumbnail)
        let coffee = try #require(entries.first { $0["description"] as? String == "Coffee" })
        #expect(coffee["receiptFile"] == nil && coffee["receipt"] is NSNull)

        // Read back as the restore reads it: the same receipt.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let document = try decoder.decode(LedgerExport.Document.self, from: json)
        #expect(try document.entries.first { $0.id == lunch }?.receiptFile?.file() == file)
        // Base64 makes the file a third bigger in the export.
        let growth = Double(json.count - without.count) / Double(png.count)
        #expect(growth > 1.33 && growth < 1.34, "\(growth)")
    }
}
