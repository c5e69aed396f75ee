import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// Several payers for one expense (S2, S3) through the API and the web form without JavaScript.
@Suite("Several payers in the API and on the web")
struct SeveralPayersWebTests {
    @Test("The API takes each payer's part, lists them on the entry, credits each in the summary, and keeps them through an edit")
    func api() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam", "Kim"]}"#)
            let (ada, sam, kim) = (ledger.members[0].id, ledger.members[1].id, ledger.members[2].id)
            let base = "/api/v1/ledgers/\(ledger.id)"
            let dinner = try await client.addExpense(f.adaToken, "\(base)/expenses", """
                {"amount": "90", "description": "Dinner", "payers": [{"member": \(sam), "paid": 30}, {"member": \(ada), "paid": "60.00"}]}
                """)
            #expect(dinner.payer == ada, "the first payer in member order")
            #expect(dinner.payers == [.init(member: ada, paid: "60.00"), .init(member: sam, paid: "30.00")])
            let lunch = try await client.addExpense(f.adaToken, "\(base)/expenses", #"{"amount": 9, "payer": \#(kim), "split": {"method": "equal", "parts": [{"member": \#(kim)}]}}"#)
            #expect(lunch.payers == [.init(member: kim, paid: "9.00")], "one payer is listed too")

            let summary = try await client.summary(f.adaToken, ledger.id)
            #expect(summary.members.map(\.paid) == ["60.00", "30.00", "9.00"])
            #expect(summary.members.map(\.balance) == ["30.00", "0.00", "-30.00"])

            // Changing the description keeps who paid what; a new amount needs them again.
            let renamed = try await client.send(.patch, "\(base)/entries/\(dinner.id)", token: f.adaToken, json: #"{"description": "Dinner out"}"#)
            #expect(try renamed.decode(EntryReply.self).payers == dinner.payers)
            let problem = try await client.send(.patch, "\(base)/entries/\(dinner.id)", token: f.adaToken, json: #"{"amount": 99}"#).problem(.badRequest)
            #expect(problem == "Several members pay this expense: say what each pays of 99.00, or name one payer.")
            let changed = try await client.send(.patch, "\(base)/entries/\(dinner.id)", token: f.adaToken, json: """
                {"amount": 99, "payers": [{"member": \(ada), "paid": 50}, {"member": \(sam), "paid": 30}, {"member": \(kim), "paid": 19}]}
                """)
            #expect(try changed.decode(EntryReply.self).payers.map(\.paid) == ["50.00", "30.00", "19.00"])
            let settled = try await client.summary(f.adaToken, ledger.id)
            #expect(settled.members.map(\.balance) == ["17.00", "-3.00", "-14.00"])

            // A recurring expense that several pay lists them, and refuses parts that do not add up.
            let rent = try await client.send(.post, "\(base)/recurring", token: f.adaToken, json: """
                {"amount": 900, "description": "Rent", "repeat": {"every": "month", "day": 1},
                 "payers": [{"member": \(ada), "paid": 450}, {"member": \(sam), "paid": "300"}, {"member": \(kim), "paid": 150}]}
                """)
            #expect(rent.status == .created, "\(rent)")
            let payers = try #require(try rent.json()["payers"] as? [[String: Any]])
            #expect(payers.map { $0["paid"] as? String } == ["450.00", "300.00", "150.00"])
            let wrong = try await client.send(.post, "\(base)/recurring", token: f.adaToken, json: """
                {"amount": 900, "repeat": {"every": "month", "day": 1}, "payers": [{"member": \(ada), "paid": 450}]}
                """).problem(.badRequest)
            #expect(wrong == "What the payers paid adds up to 450.00, not 900.00: change it by 450.00 so it matches the expense.")

            // The search's member finds what they paid part of.
            let found = try await client.send(.get, "\(base)/entries?member=\(sam)", token: f.adaToken).decode(PageReply.self)
            #expect(found.items.map(\.id) == [dinner.id])
        }
    }

    @Test("The quick entry takes several payers, the history says who paid what, a wrong sum is refused at the payers, the edit page is filled in")
    func quickEntry() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger.id)")
            #expect(page.text.contains(#"<input type="radio" name="payer" id="payer-several" value="several">"#))
            #expect(page.text.contains(#"<input class="paid" name="paid-\#(sam)" id="paid-\#(sam)" inputmode="decimal""#))

            let refused = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "50", "payer": "several", "paid-\(ada)": "20", "paid-\(sam)": "25", "split": "equal",
                "among-\(ada)": "yes", "among-\(sam)": "yes", "id": UUID().uuidString])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"<p class="field-error" id="payers-error">What the payers paid adds up to 45.00, not 50.00: change it by 5.00 so it matches the expense.</p>"#), "\(refused.text)")
            #expect(refused.text.contains(#"aria-invalid="true">"#) && refused.text.contains(#"id="payer-several" value="several" checked"#))
            #expect(refused.text.contains(#"id="paid-\#(sam)" inputmode="decimal" autocomplete="off" value="25""#), "as typed")
            let none = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken).decode(PageReply.self)
            #expect(none.items.isEmpty)

            let typo = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "50", "payer": "several", "paid-\(ada)": "twenty", "split": "equal", "among-\(ada)": "yes"])
            #expect(typo.status == .badRequest && typo.text.contains(#"id="payers-error">"#) && typo.text.contains("twenty"))

            let added = try await browser.post("/spending/\(ledger.id)/expenses", [
                "amount": "50", "payer": "several", "paid-\(ada)": "20", "paid-\(sam)": "30", "description": "Dinner",
                "split": "equal", "among-\(ada)": "yes", "among-\(sam)": "yes", "id": UUID().uuidString])
            #expect(added.status == .seeOther, "\(added)")
            let entry = try #require(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries", token: f.adaToken)
                .decode(PageReply.self).items.first)
            #expect(entry.payers == [.init(member: ada, paid: "20.00"), .init(member: sam, paid: "30.00")])
            let shown = try await browser.get("/spending/\(ledger.id)")
            #expect(shown.text.contains("paid by Ada €20.00 and Sam €30.00"))
            #expect(shown.text.contains(#"data-payers="\#(ada):2000 \#(sam):3000""#), "the figures the page takes back offline")

            let edit = try await browser.get("/spending/\(ledger.id)/entries/\(entry.id)/edit")
            #expect(edit.text.contains(#"id="payer-several" value="several" checked"#))
            #expect(edit.text.contains(#"id="paid-\#(ada)" inputmode="decimal" autocomplete="off" value="20.00""#))
            let saved = try await browser.post("/spending/\(ledger.id)/entries/\(entry.id)/edit", [
                "amount": "60", "payer": "several", "paid-\(ada)": "45", "paid-\(sam)": "15", "date": entry.date, "description": "Dinner",
                "split": "equal", "among-\(ada)": "yes", "among-\(sam)": "yes"])
            #expect(saved.status == .seeOther, "\(saved)")
            let edited = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries/\(entry.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(edited.payers.map(\.paid) == ["45.00", "15.00"] && edited.amount == "60.00")
            let one = try await browser.post("/spending/\(ledger.id)/entries/\(entry.id)/edit", [
                "amount": "60", "payer": "\(sam)", "paid-\(ada)": "45", "date": entry.date, "split": "equal", "among-\(ada)": "yes", "among-\(sam)": "yes"])
            #expect(one.status == .seeOther)
            let back = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/entries/\(entry.id)", token: f.adaToken).decode(EntryReply.self)
            #expect(back.payers == [.init(member: sam, paid: "60.00")], "one payer again; the amounts typed for several are ignored")

            // The recurring form takes several payers too, and refuses them at the payers.
            let recurring = "/spending/\(ledger.id)/recurring"
            let start = edited.date
            let wrong = try await browser.post(recurring, ["amount": "800", "every": "month", "start": start, "payer": "several",
                                                           "paid-\(ada)": "500", "split": "equal", "among-\(ada)": "yes", "among-\(sam)": "yes"])
            #expect(wrong.status == .badRequest && wrong.text.contains(#"id="payers-error">What the payers paid adds up to 500.00, not 800.00"#))
            let rent = try await browser.post(recurring, ["amount": "800", "description": "Rent", "every": "month", "start": start, "payer": "several",
                                                          "paid-\(ada)": "500", "paid-\(sam)": "300", "split": "equal",
                                                          "among-\(ada)": "yes", "among-\(sam)": "yes"])
            #expect(rent.status == .seeOther, "\(rent)")
            #expect(try await browser.get(recurring).text.contains("paid by Ada €500.00 and Sam €300.00"))
        }
    }
}
