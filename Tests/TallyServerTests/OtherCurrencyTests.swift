import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// Expenses and payments typed in another currency than the ledger's (S2): through the API, the
/// web form without JavaScript and the exports, with the original kept beside the ledger amount.
@Suite("Entries in another currency")
struct OtherCurrencyTests {
    @Test("The API converts at the rate given, keeps the original, uses the last rate when none is given, and re-converts one entry on a new rate")
    func api() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let dinner = try await client.send(.post, "\(base)/expenses", token: f.adaToken, json: """
                {"amount": "100", "currency": "usd", "rate": "0.9234", "description": "Dinner"}
                """)
            #expect(dinner.status == .created, "\(dinner)")
            let body = try dinner.json()
            #expect(body["amount"] as? String == "92.34" && body["currency"] as? String == "EUR")
            let original = try #require(body["original"] as? [String: Any])
            #expect(original["amount"] as? String == "100.00" && original["currency"] as? String == "USD" && original["rate"] as? String == "0.9234")
            let parts = try #require(body["parts"] as? [[String: Any]])
            #expect(parts.map { $0["share"] as? String } == ["46.17", "46.17"])

            // Without a rate, the ledger's last one for the currency; a JSON number works too.
            let taxi = try await client.addExpense(f.adaToken, "\(base)/expenses", #"{"amount": 10, "currency": "USD", "payer": \#(sam)}"#)
            #expect(taxi.amount == "9.23")
            // An exact split and several payers typed in dollars.
            let museum = try await client.send(.post, "\(base)/expenses", token: f.adaToken, json: """
                {"amount": "30", "currency": "USD", "rate": 0.9, "payers": [{"member": \(ada), "paid": "10"}, {"member": \(sam), "paid": "20"}],
                 "split": {"method": "exact", "parts": [{"member": \(ada), "value": "12.50"}, {"member": \(sam), "value": "17.50"}]}}
                """)
            #expect(museum.status == .created, "\(museum)")
            let museumBody = try museum.json()
            #expect((museumBody["payers"] as? [[String: Any]])?.map { $0["paid"] as? String } == ["9.00", "18.00"])
            #expect(((museumBody["original"] as? [String: Any])?["payers"] as? [[String: Any]])?.map { $0["paid"] as? String } == ["10.00", "20.00"])
            #expect((museumBody["parts"] as? [[String: Any]])?.map { $0["value"] as? String } == ["12.5", "17.5"])
            #expect((museumBody["parts"] as? [[String: Any]])?.map { $0["share"] as? String } == ["11.25", "15.75"])
            // A payment in dollars settles in euros.
            let payment = try await client.send(.post, "\(base)/payments", token: f.adaToken, json: """
                {"from": \(sam), "to": \(ada), "amount": "20", "currency": "USD", "rate": "0.9"}
                """)
            #expect(payment.status == .created, "\(payment)")
            #expect(try payment.json()["amount"] as? String == "18.00")

            // Balances in euros: Ada paid 92.34 + 9.00 and received 18.00; Sam paid 9.23 + 18.00 and
            // sent 18.00; shares 46.17 + 4.615 + 11.25 and 46.17 + 4.615 + 15.75, rounded once.
            let summary = try await client.summary(f.adaToken, ledger.id)
            #expect(summary.members.map(\.paid) == ["101.34", "27.23"])
            #expect(summary.members.map(\.balance) == ["21.30", "-21.30"])

            // A new rate re-converts that entry only.
            let changed = try await client.send(.patch, "\(base)/entries/\(taxi.id)", token: f.adaToken, json: #"{"rate": "0.95"}"#)
            #expect(changed.status == .ok, "\(changed)")
            #expect(try changed.json()["amount"] as? String == "9.50")
            let dinnerAgain = try await client.send(.get, "\(base)/entries/\(dinner.json()["id"] as! String)", token: f.adaToken).json()
            #expect(dinnerAgain["amount"] as? String == "92.34")
            let activity = try await client.send(.get, "\(base)/activity", token: f.adaToken).decode(ActivityReply.self)
            #expect(activity.items.first?.text == "Changed the expense of 10.00 USD → 9.23 EUR: rate 0.9234 → 0.95.", "\(activity.items.first?.text ?? "")")
            // A body whose rate cannot be read is refused, even when its id was sent before.
            let key = UUID()
            _ = try await client.addExpense(f.adaToken, "\(base)/expenses", #"{"id": "\#(key)", "amount": "5"}"#)
            let replay = try await client.send(.post, "\(base)/payments", token: f.adaToken, json: """
                {"id": "\(key)", "from": \(sam), "to": \(ada), "amount": "5", "rate": "AAA"}
                """)
            #expect(try replay.problem(.badRequest) == "\"AAA\" is not a rate: write how many of the ledger's currency one unit is worth, such as 0.92.")
            let long = try await client.send(.post, "\(base)/payments", token: f.adaToken, json: """
                {"id": "\(key)", "from": \(sam), "to": \(ada), "amount": "5", "note": "\(String(repeating: "n", count: 201))"}
                """)
            #expect(try long.problem(.badRequest).hasPrefix("A description can be at most 200 characters long"), "the rules first, then the replay")
            let again = try await client.send(.post, "\(base)/expenses", token: f.adaToken, json: #"{"id": "\#(key)", "amount": "5"}"#)
            #expect(again.status == .ok, "the same body again is answered with the entry it recorded")
            // Back to the ledger's currency: the original goes.
            let home = try await client.send(.patch, "\(base)/entries/\(taxi.id)", token: f.adaToken, json: #"{"currency": "EUR", "amount": "9.50"}"#)
            #expect(try home.json()["original"] is NSNull)
        }
    }

    @Test("Refused in words, with nothing stored: an unknown currency, a rate that is not one, no rate known, too many decimals for the currency")
    func refusals() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR"}"#)
            let path = "/api/v1/ledgers/\(ledger.id)/expenses"
            func refusal(_ json: String) async throws -> (detail: String, field: String?) {
                let answer = try await client.send(.post, path, token: f.adaToken, json: json)
                let detail = try answer.problem(.badRequest)
                return (detail, try answer.json()["field"] as? String)
            }
            #expect(try await refusal(#"{"amount": "10", "currency": "XYZ", "rate": "1"}"#)
                    == ("\"XYZ\" is not a currency: use an ISO 4217 code such as EUR, USD, GBP or JPY.", "currency"))
            #expect(try await refusal(#"{"amount": "10", "currency": "USD", "rate": "0"}"#) == ("A rate must be more than 0.", "rate"))
            #expect(try await refusal(#"{"amount": "10", "currency": "USD", "rate": "-1"}"#) == ("A rate must be more than 0; \"-1\" is negative.", "rate"))
            #expect(try await refusal(#"{"amount": "10", "currency": "USD", "rate": "cheap"}"#)
                    == ("\"cheap\" is not a rate: write how many of the ledger's currency one unit is worth, such as 0.92.", "rate"))
            #expect(try await refusal(#"{"amount": "10", "currency": "USD", "rate": "5000000"}"#)
                    == ("A rate must be between 0.000001 and 1000000; 5000000 is not: check that it is how many of the ledger's currency one unit is worth.", "rate"))
            #expect(try await refusal(#"{"amount": "10", "currency": "GBP"}"#)
                    == ("Give the rate of GBP: how many EUR one GBP is worth. This ledger has no rate for it yet.", "rate"))
            #expect(try await refusal(#"{"amount": "1000.5", "currency": "JPY", "rate": "0.0062"}"#)
                    == ("\"1000.5\" has more decimals than JPY has: write it with no decimals.", "amount"))
            #expect(try await refusal(#"{"amount": "10", "rate": "0.9"}"#)
                    == ("A rate goes with an amount in another currency than the ledger's EUR: leave it out, or give the currency.", "rate"))
            let none = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken).decode(PageReply.self)
            #expect(none.items.isEmpty)
        }
    }

    @Test("The web form takes a currency and rate, the history shows both amounts, the page sums what was spent in each currency, the edit page keeps them")
    func web() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let empty = try await browser.get("/spending/\(ledger.id)")
            #expect(empty.text.contains(#"<input id="currency" name="currency" class="currency-code" value="EUR""#), "\(empty.text)")

            let refused = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "100", "currency": "USD", "rate": "", "payer": "\(ada)", "split": "equal",
                "among-\(ada)": "yes", "among-\(sam)": "yes", "id": UUID().uuidString])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"id="rate-error" aria-live="polite">Give the rate of USD: how many EUR one USD is worth. This ledger has no rate for it yet.</p>"#))
            #expect(refused.text.contains(#"value="USD""#), "as typed")

            let added = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "100", "currency": "USD", "rate": "0.9234", "description": "Dinner", "payer": "\(ada)", "split": "equal",
                "among-\(ada)": "yes", "among-\(sam)": "yes", "id": UUID().uuidString])
            #expect(added.status == .seeOther, "\(added)")
            let page = try await browser.get("/spending/\(ledger.id)")
            #expect(page.text.contains(#"<span class="original">$100.00</span>"#), "\(page.text)")
            #expect(page.text.contains(#"<span class="amount">€92.34</span>"#))
            #expect(page.text.contains("Of which spent in USD: $100.00 (€92.34)"))
            // The next expense starts in the currency of the latest one, with its rate.
            #expect(page.text.contains(#"value="USD" list="currency-codes""#))
            #expect(page.text.contains(#"data-rates="USD=0.9234""#) && page.text.contains(#"class="rate" inputmode="decimal" autocomplete="off" value="0.9234""#))

            let entry = try #require(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken)
                .decode(PageReply.self).items.first)
            let edit = try await browser.get("/spending/\(ledger.id)/entries/\(entry.id)/edit")
            #expect(edit.text.contains(#"value="100.00" aria-describedby="amount-error""#))
            #expect(edit.text.contains(#"value="0.9234""#))
            let saved = try await browser.post("/spending/\(ledger.id)/entries/\(entry.id)/edit", [
                "amount": "100.00", "currency": "USD", "rate": "0.9", "payer": "\(ada)", "date": entry.date, "description": "Dinner",
                "split": "equal", "among-\(ada)": "yes", "among-\(sam)": "yes"])
            #expect(saved.status == .seeOther, "\(saved)")
            let edited = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries/\(entry.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(edited.amount == "90.00")

            // A payment in dollars from the "Record a payment" form.
            #expect(page.text.contains(#"<input id="pay-currency" name="currency" class="currency-code" value="EUR""#))
            let paid = try await browser.post("/spending/\(ledger.id)/payments", [
                "from": "\(sam)", "to": "\(ada)", "amount": "10", "currency": "USD", "rate": "0.9", "id": UUID().uuidString])
            #expect(paid.status == .seeOther, "\(paid)")
            let payment = try #require(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken)
                .decode(PageReply.self).items.first { $0.kind == "payment" })
            #expect(payment.amount == "9.00")

            // The CSV export keeps the original beside the ledger amount.
            let csv = try await browser.get("/spending/\(ledger.id)/export.csv")
            #expect(csv.text.contains("date,kind,description,category,amount,currency,original amount,original currency,rate,"), "\(csv.text)")
            #expect(csv.text.contains(",expense,Dinner,,90.00,EUR,100.00,USD,0.9,"), "\(csv.text)")
        }
    }
}
