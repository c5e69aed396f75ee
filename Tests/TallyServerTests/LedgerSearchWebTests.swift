import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// A ledger page's search, without JavaScript: a GET form whose fields stay in the address.
@Suite("Ledger page search")
struct LedgerSearchWebTests {
    @Test("A search shows only what it finds, a page at a time with the search kept, and its fields come back filled in")
    func searchAndPages() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let base = "/api/v1/ledgers/\(ledger.id)"
            for index in 0..<36 {
                f.clock.advance(by: 60)
                let (what, category) = index % 11 == 0 ? ("Rent", "Home") : ("Coffee +1 ☕", "Food")
                _ = try await client.addExpense(f.adaToken, "\(base)/expenses",
                                                #"{"amount": 3, "description": "\#(what)", "category": "\#(category)"}"#)
            }
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")

            let everything = try await browser.get("/spending/\(ledger.id)")
            #expect(everything.text.contains(#"<h2 id="history-title">History</h2>"#))
            #expect(everything.text.contains(#"<option value="Food"></option><option value="Home"></option>"#), "the ledger's categories to choose from")

            let found = try await browser.get("/spending/\(ledger.id)?q=coffee+%2B1&member=&category=Food&from=&through=")
            #expect(found.status == .ok)
            #expect(found.text.contains(#"<h2 id="history-title">Found</h2>"#))
            #expect(found.text.components(separatedBy: "<strong>Coffee +1 ☕</strong>").count - 1 == 30)
            #expect(!found.text.contains("<strong>Rent</strong>"))
            #expect(found.text.contains(#"name="q" type="search" maxlength="100" value="coffee +1""#))
            #expect(found.text.contains(#"name="category" maxlength="50" value="Food""#))
            let more = try #require(found.text.firstMatch(of: /href="(\/spending\/[^"]+after=[^"#]+)#history-title"/)?.1)
            #expect(more.contains("q=coffee%20%2B1") && more.contains("category=Food"), "the search goes with the next page: \(more)")
            let next = try await browser.get(more.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(next.text.components(separatedBy: "<strong>Coffee +1 ☕</strong>").count - 1 == 2, "the two older ones")
            #expect(!next.text.contains("<strong>Rent</strong>") && !next.text.contains("data-more-entries"))
            #expect(next.text.contains(#"value="coffee +1""#), "the form still holds the search")

            let none = try await browser.get("/spending/\(ledger.id)?q=tea")
            #expect(none.text.contains("No entry matches this search."))
            let all = try await browser.get("/spending/\(ledger.id)?q=&category=")
            #expect(all.text.contains(#"<h2 id="history-title">History</h2>"#), "empty fields are no search")
        }
    }

    @Test("Hostile text in a search comes back as text, in the field and in the next page's address; a date that is no date is said, and the page shows everything")
    func hostileAndRefused() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            _ = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": 3, "description": "Tea"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let hostile = "\"><script>alert(1)</script>\u{202E}e\u{301}\u{0007}"
            let encoded = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let page = try await browser.get("/spending/\(ledger.id)?q=\(encoded)")
            #expect(page.status == .ok)
            #expect(!page.text.contains("<script>alert(1)"), "escaped")
            #expect(page.text.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(page.text.contains("No entry matches this search."))

            let refused = try await browser.get("/spending/\(ledger.id)?from=2025-02-30")
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("&quot;2025-02-30&quot; is not a date for “From” in the search: write it as YYYY-MM-DD, such as 2025-03-30."),
                    "\(refused.text)")
            #expect(refused.text.contains("<strong>Tea</strong>"), "the page shows everything")
        }
    }
}
