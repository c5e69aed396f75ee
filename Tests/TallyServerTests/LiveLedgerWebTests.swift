import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// What a ledger's page needs to follow changes and to work offline (app.js, spending.js), and
/// the rule that keeps a page that was offline from overwriting what changed meanwhile: a delete
/// or an edit carries the entry as it was seen, and is refused when it has changed since.
@Suite("Ledger pages that follow changes and wait offline")
struct LiveLedgerWebTests {
    /// The `seen` field of the first form in `html` that has one.
    static func seen(in html: String) throws -> String {
        let match = try #require(html.firstMatch(of: /name="seen" value="([0-9a-f]{16})"/))
        return String(match.1)
    }

    static func revision(_ client: TestClientProtocol, _ path: String, _ token: String) async throws -> Int64 {
        try #require(try await client.send(.get, path, token: token).json()["revision"] as? Int64)
    }

    @Test("The page carries its revision and where to hear of changes, each member's and entry's figures, and which forms may wait")
    func pageFigures() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup: Ada paid 20.00 for her and Sam, Sam paid Ada 4.00
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let dinner = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": "20.01", "description": "Dinner"}"#)
            _ = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/payments", token: f.adaToken, json: #"{"from": \#(sam), "to": \#(ada), "amount": "4"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")

            // act
            let page = try await browser.get("/spending/\(ledger.id)").text
            let today = try await browser.get("/").text

            // check: the revision the page was drawn at, the same as the API's
            let revision = try await Self.revision(client, "/api/v1/ledgers/\(ledger.id)/changes", f.adaToken)
            #expect(page.contains(#"<div class="live" data-changes="/api/v1/ledgers/\#(ledger.id)/changes" data-revision="\#(revision)">"#), "\(page)")
            // each member: paid and balance in cents (Ada paid 20.01, her share 10.01 (the leftover cent), received 4.00)
            #expect(page.contains(#"<tr data-member="\#(ada)" data-paid="2001" data-balance="600">"#), "\(page)")
            #expect(page.contains(#"<tr data-member="\#(sam)" data-paid="0" data-balance="-600">"#), "\(page)")
            #expect(page.contains(#"data-currency="EUR" data-decimals="2""#))
            // each entry: who paid, how much, and each share
            #expect(page.contains(#"data-entry="\#(dinner.id)" data-kind="expense" data-payer="\#(ada)" data-amount="2001" data-payers="\#(ada):2001" data-shares="\#(ada):1001 \#(sam):1000""#), "\(page)")
            #expect(page.contains(#"data-kind="payment" data-payer="\#(sam)" data-amount="400" data-payers="\#(sam):400" data-shares="\#(ada):400""#))
            // the forms that may wait for the connection
            #expect(page.contains(#"data-swap data-offline="expense""#))
            #expect(page.contains(#"data-swap data-offline="delete""#))
            #expect(page.contains(#"<script src=""# + StaticAssets.link("spending.js") + #"" defer></script>"#))
            #expect(!today.contains("spending.js"), "the day's page loads only the script it uses")
            // the day's page, the day's revision
            let drinks = try await Self.revision(client, "/api/v1/days/2025-06-15/changes", f.adaToken)
            #expect(today.contains(#"data-changes="/api/v1/days/2025-06-15/changes" data-revision="\#(drinks)">"#), "\(today)")
        }
    }

    @Test("A delete of an entry changed since it was seen is refused with what it is now; sent again once done, it changes nothing")
    func deleteWhatWasSeen() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup: an expense, seen on the page, then changed by another request
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let entries = "/api/v1/ledgers/\(ledger.id)/entries"
            let dinner = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": "20", "description": "Dinner"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let stale = try Self.seen(in: try await browser.get("/spending/\(ledger.id)").text)
            #expect(try await client.send(.patch, "\(entries)/\(dinner.id)", token: f.adaToken, json: #"{"amount": "25"}"#).status == .ok)

            // act and check: refused, with what it is now, and nothing deleted
            let refused = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/delete", ["confirm": "yes", "seen": stale])
            #expect(refused.status == .conflict, "\(refused)")
            #expect(refused.text.contains("This entry was changed after you saw it: it is now €25.00 for Dinner, paid by Ada, split equally."))
            #expect(try await client.send(.get, "\(entries)/\(dinner.id)", token: f.adaToken).decode(EntryReply.self).deletedAt == nil)

            // act and check: as it is now, deleted; sent again (its answer lost), nothing more
            let seen = try Self.seen(in: refused.text)
            #expect(seen != stale)
            let deleted = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/delete", ["confirm": "yes", "seen": seen])
            #expect(deleted.status == .seeOther, "\(deleted)")
            let revision = try await Self.revision(client, "/api/v1/ledgers/\(ledger.id)/changes", f.adaToken)
            let again = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/delete", ["confirm": "yes", "seen": seen])
            #expect(again.status == .seeOther, "\(again)")
            #expect(try await Self.revision(client, "/api/v1/ledgers/\(ledger.id)/changes", f.adaToken) == revision)
            #expect(try await client.send(.get, "\(entries)/\(dinner.id)", token: f.adaToken).decode(EntryReply.self).deletedAt != nil)
            // without `seen` (an older page, the API), a second delete still says it is deleted
            let plain = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/delete", ["confirm": "yes"])
            #expect(plain.status == .conflict && plain.text.contains("This entry is already deleted"))
        }
    }

    @Test("An edit of an entry changed since its page was opened is refused as typed; the page then knows it as it is now")
    func editWhatWasSeen() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let entries = "/api/v1/ledgers/\(ledger.id)/entries"
            let dinner = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": "20", "description": "Dinner"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let edit = "/spending/\(ledger.id)/entries/\(dinner.id)/edit"
            let stale = try Self.seen(in: try await browser.get(edit).text)
            #expect(try await client.send(.patch, "\(entries)/\(dinner.id)", token: f.adaToken, json: #"{"description": "Dinner out"}"#).status == .ok)

            // act: the edit as typed on the page opened before
            let fields = ["amount": "30", "description": "Lunch", "date": "2025-06-15", "split": "equal",
                          "among-\(ledger.members[0].id)": "yes", "among-\(ledger.members[1].id)": "yes"]
            let refused = try await browser.post(edit, fields.merging(["seen": stale]) { $1 })

            // check: refused as typed, nothing changed, and the page now carries the entry as it is
            #expect(refused.status == .conflict, "\(refused)")
            #expect(refused.text.contains("it is now €20.00 for Dinner out") && refused.text.contains(#"value="Lunch""#))
            #expect(try await client.send(.get, "\(entries)/\(dinner.id)", token: f.adaToken).decode(EntryReply.self).description == "Dinner out")
            let saved = try await browser.post(edit, fields.merging(["seen": try Self.seen(in: refused.text)]) { $1 })
            #expect(saved.status == .seeOther, "\(saved)")
            #expect(try await client.send(.get, "\(entries)/\(dinner.id)", token: f.adaToken).decode(EntryReply.self).description == "Lunch")
        }
    }
}
