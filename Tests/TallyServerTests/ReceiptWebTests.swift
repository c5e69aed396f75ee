import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// A receipt on the pages: its picture's text is the entry's description, whatever that holds,
/// and the only pictures are the receipt's own, from Tally's own address.
@Suite("Receipts on the pages")
struct ReceiptWebTests {
    @Test("A hostile description stays text in the receipt's alt, in the history row and on the entry's page")
    func hostileDescription() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            for payload in HostileTextTests.payloads {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: ["amount": "5.00", "description": payload]), as: UTF8.self)
                let added = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: body)
                guard added.status == .created else { continue }  // refused (bidi, control characters): nothing to show
                let entry = try #require(try added.json()["id"] as? String)
                let kept = try #require(try added.json()["description"] as? String)
                let attached = try await client.upload(.put, "/api/v1/ledgers/\(ledger.id)/entries/\(entry)/receipt", token: f.adaToken,
                                                       body: try ReceiptAPITests.fixture("note.png"), type: "image/png")
                #expect(attached.status == .ok, "\(attached)")
                for page in ["/spending/\(ledger.id)", "/spending/\(ledger.id)/entries/\(entry)/edit"] {
                    let answer = try await browser.get(page)
                    #expect(answer.status == .ok, "\(page): \(answer.status)")
                    let images = HTMLTokens(answer.text).tags.filter { $0.name == "img" }
                    #expect(!images.isEmpty, "\(page) shows no receipt")
                    for image in images {
                        #expect(Set(image.attributes.map(\.name)).isSubset(of: ["src", "alt", "class", "loading", "width", "height"]),
                                "\(page): \(image.attributes.map(\.name))")
                        let source = image.attributes.first { $0.name == "src" }?.value ?? ""
                        #expect(source.hasPrefix("/spending/\(ledger.id)/entries/") && source.hasSuffix("/receipt?size=thumbnail"), "\(source)")
                    }
                    let texts = images.compactMap { $0.attributes.first { $0.name == "alt" }?.value }
                    #expect(texts.contains { $0.unicodeScalars.elementsEqual("Receipt: \(kept)".unicodeScalars) },
                            "\(page): \(texts.map(\.debugDescription)) lacks \(kept.debugDescription)")
                }
            }
        }
    }

    @Test("The quick entry's photo goes with the expense; a disguised one is refused at its field and adds nothing")
    func quickEntryWithPhoto() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            _ = try await browser.get("/spending/\(ledger.id)")
            let (ada, other) = (ledger.members[0].id, ledger.members[1].id)
            func add(_ file: Data, amount: String) async throws -> Answer {
                try await browser.post("/spending/\(ledger.id)/expenses", [
                    "amount": amount, "description": "Lunch", "payer": "\(ada)", "split": "equal", "among-\(ada)": "yes", "among-\(other)": "yes",
                    "id": UUID().uuidString], file: "receipt", file)
            }
            let refused = try await add(Data("<svg onload=alert(1)>".utf8), amount: "9.00")
            #expect(refused.status == .unsupportedMediaType, "\(refused.status)")
            #expect(refused.text.contains("JPEG, PNG, WebP or HEIC"))
            #expect(try await f.store.entries(in: ledger.id, of: f.ada.id, .all, limit: nil, after: nil).isEmpty, "a refused photo added the expense")

            let added = try await add(try ReceiptAPITests.fixture("gps.jpg"), amount: "12.00")
            #expect(added.status == .seeOther || added.status == .found, "\(added.status)")
            let entries = try await f.store.entries(in: ledger.id, of: f.ada.id, .all, limit: nil, after: nil)
            #expect(entries.map(\.receipt) == [.jpeg])

            // Past the form's limit: the page says the limit of this form, not of a small one.
            let tooBig = try await add(Data(repeating: 0xFF, count: ReceiptWebController.formLimit + 1), amount: "3.00")
            #expect(tooBig.status == .contentTooLarge && tooBig.text.contains("10 MiB") && !tooBig.text.contains("64 KiB"), "\(tooBig.status)")
        }
    }
}
