import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyAPI
import TallyCore
@testable import TallyServer

/// A refusal names the field it is about, once, where the rule is checked: the API's problem says
/// it, and a page shows the sentence at that input with the same words.
@Suite("Refusals that name their field")
struct FieldRefusalTests {
    @Test("The edit page and the API refuse a zero amount with the service's one sentence, at the amount")
    func oneSentenceAtTheField() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let entries = "/api/v1/ledgers/\(ledger.id)/entries"
            let entry = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": "12.00"}"#)
            let api = try await client.send(.patch, "\(entries)/\(entry.id)", token: f.adaToken, json: #"{"amount": "0"}"#)
            #expect(try api.problem(.badRequest) == "An expense must be more than 0.")
            #expect(try api.json()["field"] as? String == "amount")
            #expect(try api.json()["title"] as? String == "Bad Request")

            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.post("/spending/\(ledger.id)/entries/\(entry.id)/edit", [
                "amount": "0", "date": "2025-06-01", "description": "Lunch", "payer": String(ledger.members[0].id), "split": "equal",
                "among-\(ledger.members[0].id)": "yes", "among-\(ledger.members[1].id)": "yes"])
            #expect(page.status == .badRequest)
            #expect(page.text.contains(#"<p class="field-error" id="amount-error">An expense must be more than 0.</p>"#), "\(page.text)")
            #expect(page.text.contains(#"aria-describedby="amount-error" aria-invalid="true">"#))
        }
    }

    @Test("A split that does not add up is refused by the service at the split, on the page and in the API")
    func splitAtTheSplit() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "10", "payer": String(ada), "split": "exact", "part-\(ada)": "4", "part-\(sam)": "5", "id": UUID().uuidString])
            let sentence = "The exact amounts add up to 9.00, not 10.00: change them by 1.00 so they match the expense."
            #expect(page.status == .badRequest)
            #expect(page.text.contains(#"<p class="field-error" id="split-error">\#(sentence)</p>"#), "\(page.text)")
            let api = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: """
                {"amount": "10", "split": {"method": "exact", "parts": [{"member": \(ada), "value": "4"}, {"member": \(sam), "value": "5"}]}}
                """)
            #expect(try api.problem(.badRequest) == sentence)
            #expect(try api.json()["field"] as? String == "split")
        }
    }

    @Test("A recurring expense's dates are refused at startDate and endDate; the page shows them at its first and last day")
    func recurringDates() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let path = "/api/v1/ledgers/\(ledger.id)/recurring"
            let past = try await client.send(.post, path, token: f.adaToken, json: """
                {"amount": "800", "repeat": {"every": "month", "day": 1}, "startDate": "2000-01-01"}
                """)
            #expect(try past.problem(.badRequest).contains("starts today"))
            #expect(try past.json()["field"] as? String == "startDate")
            let before = try await client.send(.post, path, token: f.adaToken, json: """
                {"amount": "800", "repeat": {"every": "month", "day": 2}, "startDate": "2099-01-01", "endDate": "2099-01-01"}
                """)
            #expect(try before.problem(.badRequest).contains("before the first occurrence"))
            #expect(try before.json()["field"] as? String == "endDate")

            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.post("/spending/\(ledger.id)/recurring", [
                "amount": "800", "every": "month", "start": "2000-01-01", "split": "equal",
                "among-\(ledger.members[0].id)": "yes", "among-\(ledger.members[1].id)": "yes"])
            #expect(page.status == .badRequest)
            #expect(page.text.contains(#"<p class="field-error" id="start-error">A recurring expense starts today"#), "\(page.text)")
        }
    }

    @Test("A refusal about a field a form does not mark (a category too long) is said at the top of the page")
    func unmarkedFieldAtTheTop() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let (p1, p2) = (ledger.members[0].id, ledger.members[1].id)
            let entry = try await client.addExpense(f.adaToken, "/api/v1/ledgers/\(ledger.id)/expenses", #"{"amount": "12.00"}"#)
            let long = String(repeating: "x", count: 51)
            let sentence = "A category can be at most 50 characters long (and 200 bytes of UTF-8)."
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let edit = try await browser.post("/spending/\(ledger.id)/entries/\(entry.id)/edit", [
                "amount": "12", "date": "2025-06-01", "category": long, "payer": String(p1), "split": "equal",
                "among-\(p1)": "yes", "among-\(p2)": "yes"])
            #expect(edit.status == .badRequest && edit.text.contains(#"role="alert">\#(sentence)"#), "\(edit.text)")
            let recurring = try await browser.post("/spending/\(ledger.id)/recurring", [
                "amount": "800", "every": "month", "start": "2099-01-01", "category": long, "split": "equal",
                "among-\(p1)": "yes", "among-\(p2)": "yes"])
            #expect(recurring.status == .badRequest && recurring.text.contains(#"role="alert">\#(sentence)"#), "\(recurring.text)")
        }
    }

    @Test("A body that cannot be read names where reading stopped")
    func decodingPath() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR"}"#)
            let answer = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: """
                {"amount": "10", "split": {"method": "shares", "parts": [{"member": "x"}]}}
                """)
            #expect(try answer.problem(.badRequest).contains("split.parts[0].member"))
            #expect(try answer.json()["field"] as? String == "split.parts[0].member")
            let whole = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: #"{"amount": "#)
            _ = try whole.problem(.badRequest)
            #expect(try whole.json()["field"] == nil, "not valid JSON is about the body as a whole")
        }
    }
}
