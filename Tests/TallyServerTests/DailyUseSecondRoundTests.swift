import Foundation
import TallyCore
@testable import TallyServer
import TallyServices
import Testing

/// Daily use, second round, on the pages: a day still to come offers nothing to add, and a
/// ledger's quick entry starts in the reader's own currency, never in another member's.
@Suite("Daily use on the pages, second round")
struct DailyUseSecondRoundTests {
    @Test("H9: a day to come is no link in the calendar, and its page says it has not come instead of offering quick-add")
    func futureDays() async throws {
        let f = try await ServerFixture() // 15 June 2025, noon in Berlin
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let month = try await browser.get("/history?month=2025-06").text
            #expect(month.contains(#"href="/day/2025-06-14""#) && month.contains(#"href="/day/2025-06-15""#))
            #expect(!month.contains(#"href="/day/2025-06-16""#), "a day to come is a link")
            #expect(month.contains(#"<td class="future"><span>16</span></td>"#))

            let tomorrow = try await browser.get("/day/2025-06-16").text
            #expect(tomorrow.contains("June 16, 2025 has not come yet: drinks are added on the day."), "\(tomorrow)")
            #expect(!tomorrow.contains(#"class="preset""#) && !tomorrow.contains(#"id="custom""#), "quick-add on a day to come")
            let yesterday = try await browser.get("/day/2025-06-14").text
            #expect(yesterday.contains(#"class="preset""#) && yesterday.contains(#"id="custom""#), "a past day still takes drinks")
        }
    }

    @Test("S2: the quick entry starts in the ledger's currency after another member's dollars, and in the reader's own after theirs")
    func currencyIsNotAnotherMembers() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Ben"]}"#)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken, json: #"{"days": 3, "uses": 1}"#)
            let code = try #require(try opened.decode(LedgerReply.self).inviteCode)
            let ben = ledger.members[1].id
            #expect(try await client.send(.post, "/api/v1/ledgers/join", token: f.bobToken, json: #"{"code": "\#(code)", "member": \#(ben)}"#)
                .status == .ok)
            let added = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken,
                                              json: #"{"amount": "20", "currency": "USD", "rate": "0.92", "description": "Taxi"}"#)
            #expect(added.status == .created, "\(added)")

            let bens = try await WebTests.Browser.signedIn(client, "bob", "battery staple")
            let bensPage = try await bens.get("/spending/\(ledger.id)").text
            #expect(bensPage.contains(#"<input id="currency" name="currency" class="currency-code" value="EUR""#), "Ada's dollars carried over to Ben")
            let adas = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            #expect(try await adas.get("/spending/\(ledger.id)").text
                .contains(#"<input id="currency" name="currency" class="currency-code" value="USD""#), "Ada's own trip")
        }
    }

    @Test("A ledger's pages in German and Arabic: several payers listed in the language's words with its money, recurring entries and activity the same; no English, no bare amount")
    func noEnglishLeft() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let dinner = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: """
                {"amount": "1234.50", "description": "Dinner", "payers": [{"member": \(ada), "paid": "1000"}, {"member": \(sam), "paid": "234.50"}]}
                """)
            #expect(dinner.status == .created, "\(dinner)")
            let rent = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/recurring", token: f.adaToken, json: """
                {"amount": "1500", "description": "Rent", "payers": [{"member": \(ada), "paid": "1000"}, {"member": \(sam), "paid": "500"}],
                 "repeat": {"every": "month", "day": 1}}
                """)
            #expect(rent.status == .created, "\(rent)")
            var browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let pages = ["/spending/\(ledger.id)", "/spending/\(ledger.id)/recurring", "/spending/\(ledger.id)/activity"]
            for (language, payers) in [("de-DE", "Ada 1.000,00\u{A0}€ und Sam "), ("ar", "و")] {
                browser.language = language
                for path in pages {
                    let page = try await browser.get(path).text
                    // What a person reads: the page without its markup and the scripts' phrase book.
                    let text = page.replacing(/<script[\s\S]*?<\/script>/, with: " ").replacing(/<[^>]*>/, with: " ")
                    for english in [" and ", "paid by", "Every month", "every month", "Next on"] {
                        #expect(!text.contains(english), "\(language) \(path): \(english.debugDescription) in \(Self.around(english, in: text))")
                    }
                    #expect(text.firstMatch(of: /\d[.,]\d{2} EUR/) == nil, "\(language) \(path): an amount with its code, not as the locale writes money")
                    let bare = text.firstMatch(of: /\b\d{4,}[.,]\d{2}\b/).map { String($0.output) }
                    #expect(bare == nil, "\(language) \(path): an amount not grouped")
                    if language == "de-DE", path != pages[2] {
                        #expect(text.contains(payers), "\(path): \(text)")
                    }
                }
            }
        }
    }

    @Test("S1: a new ledger's form offers the account's name as yours, and a choice of currencies named in the reader's language, theirs first")
    func newLedgerForm() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            var browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let english = try await browser.get("/spending").text
            #expect(english.contains(#"<input id="you" name="you" maxlength="50" autocomplete="given-name" placeholder="Person 1" value="ada">"#), "\(english)")
            #expect(english.contains(#"<select id="currency" name="currency" required><option value="USD" selected>USD · US Dollar</option>"#))
            #expect(english.contains(#"<option value="JPY">JPY · Japanese Yen</option>"#))
            #expect(!english.contains("<datalist id=\"currencies\""), "a code typed by hand")
            browser.language = "de-DE"
            let german = try await browser.get("/spending").text
            #expect(german.contains(#"<select id="currency" name="currency" required><option value="EUR" selected>EUR · Euro</option>"#))
            #expect(german.contains(#"<option value="JPY">JPY · Japanischer Yen</option>"#))
        }
    }

    @Test("S4: settling up asks once: the plan, above the balances, opens on from, to and the amount with Confirm, which records it")
    func settlingUpAsksOnce() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let added = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: #"{"amount": "42.80"}"#)
            #expect(added.status == .created)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger.id)").text
            let plan = try #require(page.firstRange(of: /<ul class="plan">[\s\S]*?<\/ul>/).map { String(page[$0]) })
            #expect(plan.contains(#"<details class="settle"><summary aria-label="Record that Sam pays you €21.40">Record this payment</summary>"#), "\(plan)")
            #expect(plan.contains("<dt>From</dt><dd>Sam</dd><dt>To</dt><dd>Ada</dd>") && plan.contains(#"<p class="settle-amount">€21.40</p>"#))
            #expect(plan.contains(#"<button type="submit" class="primary">Confirm</button>"#))
            let (planAt, balancesAt) = (try #require(page.range(of: "id=\"plan-title\"")), try #require(page.range(of: "class=\"balances")))
            #expect(planAt.lowerBound < balancesAt.lowerBound, "the plan comes after the balances, further down")

            let form = try #require(plan.firstMatch(of: /name="id" value="([^"]+)"/)).1
            let sam = ledger.members[1].id, ada = ledger.members[0].id
            let recorded = try await browser.post("/spending/\(ledger.id)/payments",
                                                  ["id": String(form), "from": "\(sam)", "to": "\(ada)", "amount": "21.40"])
            #expect(recorded.status == .seeOther, "\(recorded)")
            #expect(try await browser.get("/spending/\(ledger.id)").text.contains("You are settled up."))
        }
    }

    @Test("H3: a drink's page shows and changes its note, and deletes the drink after a page that asks")
    func drinkPageNoteAndDelete() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        let drink = try await hydration.logDrink(.init(volumeMl: 250, note: "after the <b>run</b>")).intake
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/entries/\(drink.id)/edit").text
            #expect(page.contains(#"<textarea id="note" name="note" rows="2" maxlength="500">after the &lt;b&gt;run&lt;/b&gt;</textarea>"#), "\(page)")
            #expect(page.contains(#"<form method="post" action="/entries/\#(drink.id)/delete" class="row">"#))
            #expect(page.contains(#"<button type="submit" class="danger">Delete this drink</button>"#))

            let fields = ["amount": "250", "unit": "ml", "kind": "water", "date": "2025-06-15", "time": "09:00"]
            #expect(try await browser.post("/entries/\(drink.id)/edit", fields.merging(["note": "Lemon"]) { $1 }).status == .seeOther)
            guard case .intake(let noted)? = try await hydration.entry(id: drink.id) else { Issue.record("the drink is gone"); return }
            #expect(noted.note == "Lemon")
            #expect(try await browser.post("/entries/\(drink.id)/edit", fields.merging(["note": ""]) { $1 }).status == .seeOther)
            guard case .intake(let cleared)? = try await hydration.entry(id: drink.id) else { Issue.record("the drink is gone"); return }
            #expect(cleared.note == nil, "an emptied note is cleared")

            let asked = try await browser.post("/entries/\(drink.id)/delete", [:])
            let kept = try await hydration.entry(id: drink.id)
            #expect(asked.status == .ok && kept != nil, "deleted without asking")
            #expect(try await browser.post("/entries/\(drink.id)/delete", ["confirm": "yes"]).status == .seeOther)
            #expect(try await hydration.entry(id: drink.id) == nil)
        }
    }

    @Test("S2: an expense's Add again fills the quick entry in as it was, dated today; a payment, or another ledger's entry, fills nothing")
    func addAgain() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let sam = ledger.members[1].id
            let added = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/expenses", token: f.adaToken, json: """
                {"amount": "42.80", "description": "Groceries", "category": "food", "payers": [{"member": \(sam), "paid": "42.80"}], "date": "2025-06-01"}
                """)
            let groceries = try added.decode(EntryReply.self)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger.id)").text
            #expect(page.contains(#"<a href="/spending/\#(ledger.id)?again=\#(groceries.id)#add-title" class="button again" aria-label="Add Groceries, €42.80 again">Add again</a>"#), "\(page)")

            let again = try await browser.get("/spending/\(ledger.id)?again=\(groceries.id)").text
            #expect(again.contains(#"value="42.80""#) && again.contains(#"id="description" name="description" maxlength="200" value="Groceries""#))
            #expect(again.contains(#"value="food""#) && again.contains(#"id="date" name="date" type="date" value="2025-06-15""#), "dated today")
            let payer = try #require(again.firstMatch(of: /<input type="radio" name="payer" id="payer-\d+" value="(\d+)" checked>/)).1
            #expect(payer == "\(sam)", "Sam paid it")

            let other = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Ada", "Kim"]}"#)
            let elsewhere = try await browser.get("/spending/\(other.id)?again=\(groceries.id)")
            #expect(elsewhere.status == .ok && !elsewhere.text.contains(#"value="Groceries""#), "another ledger's entry filled the form")
        }
    }

    /// The text before each place `part` is found in `text`, to say where.
    private static func around(_ part: String, in text: String) -> [String] {
        text.ranges(of: part).map { range in
            String(text[(text.index(range.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex)..<range.upperBound])
        }
    }
}
