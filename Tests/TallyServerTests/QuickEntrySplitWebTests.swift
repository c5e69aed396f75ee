import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// The quick entry's split without JavaScript (S2): every method from the form, and a split that
/// does not add up refused at the split, with what was typed.
@Suite("Quick entry split")
struct QuickEntrySplitWebTests {
    @Test("Equally among the ticked, by shares, by exact amounts and by percentages; an empty member does not share")
    func everyMethod() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam", "Kim"]}"#)
            let (ada, sam, kim) = (ledger.members[0].id, ledger.members[1].id, ledger.members[2].id)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger.id)")
            #expect(page.text.contains(#"<input type="radio" name="split" id="split-equal" value="equal" checked>"#))
            #expect(page.text.contains(#"name="part-\#(kim)""#))

            for (fields, method, shares) in [
                (["split": "equal", "among-\(ada)": "yes", "among-\(kim)": "yes"], "equal", ["6.00", "6.00"]),
                (["split": "shares", "part-\(ada)": "2", "part-\(sam)": "1", "part-\(kim)": ""], "shares", ["8.00", "4.00"]),
                (["split": "exact", "part-\(ada)": "2,50", "part-\(sam)": "9.50"], "exact", ["2.50", "9.50"]),
                (["split": "percent", "part-\(sam)": "25", "part-\(kim)": "75"], "percent", ["3.00", "9.00"]),
            ] {
                let added = try await browser.post("/spending/\(ledger.id)/expenses", fields.merging(["amount": "12", "id": UUID().uuidString]) { $1 })
                #expect(added.status == .seeOther, "\(method): \(added)")
                let entry = try #require(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries?limit=1", token: f.adaToken)
                    .decode(PageReply.self).items.first)
                #expect(entry.split == method && entry.parts.map(\.share) == shares, "\(method): \(entry)")
            }
        }
    }

    @Test("A split that does not add up, or names nobody, is refused at the split with what was typed, and nothing is added")
    func refusedAtTheSplit() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR"}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            for (fields, message) in [
                (["split": "exact", "part-\(ada)": "5", "part-\(sam)": "5"],
                 "The exact amounts add up to 10.00, not 12.00: change them by 2.00 so they match the expense."),
                (["split": "percent", "part-\(ada)": "50", "part-\(sam)": "40"],
                 "The percentages add up to 90%, not 100%: change them by 10 so they add up."),
                (["split": "shares", "part-\(ada)": "", "part-\(sam)": ""], "Give at least one member's share count."),
                (["split": "shares", "part-\(ada)": "two"],
                 #""two" is not a number: write the share count with digits, such as 2 or 12.50."#),
                (["split": "equal"], "Tick at least one member to share the expense."),
            ] {
                let refused = try await browser.post("/spending/\(ledger.id)/expenses", fields.merging(["amount": "12"]) { $1 })
                #expect(refused.status == .badRequest, "\(fields)")
                let shown = message.replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
                #expect(refused.text.contains(#"<p class="field-error" id="split-error">\#(shown)</p>"#), "\(fields): \(refused.text)")
                #expect(refused.text.contains(#"data-split"#) && refused.text.contains(#"<details class="more" open>"#))
                if let typed = fields["part-\(ada)"], !typed.isEmpty {
                    #expect(refused.text.contains(#"value="\#(typed)""#), "what was typed comes back")
                }
            }
            let entries = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken).decode(PageReply.self)
            #expect(entries.items.isEmpty)
        }
    }

    @Test("S5: an expense is edited on its own page, filled in with it, split included; a refused edit changes nothing; a payment keeps who; a stranger finds nothing")
    func editPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR"}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let dinner = try await client.addExpense(f.adaToken, "\(base)/expenses",
                                                     #"{"amount": 12, "description": "Dinner", "category": "Food", "date": "2025-06-14"}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let ledgerPage = try await browser.get("/spending/\(ledger.id)")
            #expect(ledgerPage.text.contains(#"href="/spending/\#(ledger.id)/entries/\#(dinner.id)/edit""#))

            let page = try await browser.get("/spending/\(ledger.id)/entries/\(dinner.id)/edit")
            #expect(page.status == .ok)
            for filled in [#"name="amount" class="amount-input" inputmode="decimal" autocomplete="off" required value="12.00""#,
                           #"value="Dinner""#, #"value="Food""#, #"value="2025-06-14""#, #"id="split-equal" value="equal" checked"#,
                           #"id="payer-\#(ada)" value="\#(ada)" checked"#] {
                #expect(page.text.contains(filled), "\(filled)")
            }

            let refused = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/edit", [
                "amount": "15", "payer": "\(sam)", "date": "2025-06-14", "description": "Dinner out", "split": "percent",
                "part-\(ada)": "50", "part-\(sam)": "40"])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"id="split-error">The percentages add up to 90%, not 100%: change them by 10 so they add up.</p>"#))
            #expect(refused.text.contains(#"value="Dinner out""#) && refused.text.contains(#"value="40""#), "as typed")
            let unchanged = try await client.send(.get, "\(base)/entries/\(dinner.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(unchanged == dinner)

            let saved = try await browser.post("/spending/\(ledger.id)/entries/\(dinner.id)/edit", [
                "amount": "15", "payer": "\(sam)", "date": "2025-06-15", "description": "Dinner out", "category": "",
                "split": "shares", "part-\(ada)": "2", "part-\(sam)": "1"])
            #expect(saved.status == .seeOther && saved.headers[.location] == "/spending/\(ledger.id)", "\(saved)")
            let edited = try await client.send(.get, "\(base)/entries/\(dinner.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(edited.amount == "15.00" && edited.payer == sam && edited.date == "2025-06-15" && edited.description == "Dinner out")
            #expect(edited.category == nil && edited.split == "shares" && edited.parts.map(\.share) == ["10.00", "5.00"])
            let again = try await browser.get("/spending/\(ledger.id)/entries/\(dinner.id)/edit")
            #expect(again.text.contains(#"id="split-shares" value="shares" checked"#) && again.text.contains(#"name="part-\#(ada)" id="part-\#(ada)" inputmode="decimal" autocomplete="off" value="2""#))

            let paid = try await client.send(.post, "\(base)/payments", token: f.adaToken, json: #"{"from": \#(sam), "to": \#(ada), "amount": 5}"#)
            let payment = try paid.decode(EntryReply.self)
            let paymentPage = try await browser.get("/spending/\(ledger.id)/entries/\(payment.id)/edit")
            #expect(paymentPage.text.contains("Edit the payment") && !paymentPage.text.contains("data-split"))
            _ = try await browser.post("/spending/\(ledger.id)/entries/\(payment.id)/edit", ["amount": "7", "date": payment.date, "description": "cash"])
            let changedPayment = try await client.send(.get, "\(base)/entries/\(payment.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(changedPayment.amount == "7.00" && changedPayment.description == "cash" && changedPayment.payer == sam && changedPayment.recipient == ada)

            let stranger = try await WebTests.Browser.signedIn(client, "bob", "battery staple")
            #expect(try await stranger.get("/spending/\(ledger.id)/entries/\(dinner.id)/edit").status == .notFound)
        }
    }
}
