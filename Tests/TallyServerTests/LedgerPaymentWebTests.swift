import Foundation
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// A payment of any amount between any two members, from the ledger's page without JavaScript
/// (S4): part of a debt, or between two members the settle-up plan does not pair.
@Suite("Recording any payment on a ledger's page")
struct LedgerPaymentWebTests {
    @Test("A part of what is owed, and a payment the plan does not pair, both move the balance, seen from the reader's side")
    func anyPayment() async throws {
        let f = try await ServerFixture()
        let spending = SpendingService(store: f.store, clock: f.clock, user: f.ada.id)
        let ledger = try await spending.createLedger(name: "Flat", currency: "EUR", memberNames: ["Ada", "Ben", "Cy"]).ledger.id
        _ = try await spending.addExpense(to: ledger, .init(amount: .text("90.00"), payer: try await spending.id(of: "Ada", in: ledger), description: "Groceries"))
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger)").text
            #expect(page.contains("<summary>Record a payment</summary>"))
            #expect(page.contains(#"<option value="1" selected>Ada (you)</option>"#), "from you, by default")
            #expect(page.contains("Ben owes you €30.00.") && page.contains("Cy owes you €30.00."))
            // Ben pays back a third of his part; then Cy pays Ben, whom the plan never pairs with Cy.
            #expect(try await browser.post("/spending/\(ledger)/payments", ["from": "2", "to": "1", "amount": "10.00"]).status == .seeOther)
            #expect(try await browser.post("/spending/\(ledger)/payments", ["from": "3", "to": "2", "amount": "5"]).status == .seeOther)
            let after = try await browser.get("/spending/\(ledger)").text
            // Ben: −30 + 10 + 5 received... he paid 10, received 5: −30 + 10 − 5 = −25; Cy: −30 + 5 = −25.
            #expect(after.contains("Ben owes you €25.00.") && after.contains("Cy owes you €25.00."), "\(after)")
            let refused = try await browser.post("/spending/\(ledger)/payments", ["from": "2", "to": "2", "amount": "5"])
            #expect(refused.status.code >= 400 && refused.status.code < 500)
        }
    }
}
