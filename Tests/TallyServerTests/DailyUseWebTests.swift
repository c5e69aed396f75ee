import Foundation
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// Daily use on the web pages without JavaScript: a drink changed after it was logged, a custom
/// amount at a time typed with it, a ledger's history from the reader's side, and its activity
/// on a page of its own.
@Suite("Daily use on the pages")
struct DailyUseWebTests {
    private let berlin = TimeZone(identifier: "Europe/Berlin")!

    private func moment(_ text: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        let parts = text.split(whereSeparator: { "- :".contains($0) }).compactMap { Int($0) }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))!
    }

    @Test("H3: a drink's amount, kind, day and time change on its page; a time ahead, a removal or another's drink is refused")
    func changeADrink() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        let drink = try await hydration.logDrink(.init(volumeMl: 250)).intake
        _ = try await hydration.logDrink(.init(volumeMl: 100))
        let removal = try await hydration.remove(volumeMl: 50).removal
        let bobs = try await HydrationService(store: f.store, clock: f.clock, user: f.bob.id).logDrink(.init(volumeMl: 100)).intake
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let today = try await browser.get("/").text
            #expect(today.contains("href=\"/entries/\(drink.id)/edit\""), "no way to change the drink")
            #expect(!today.contains("href=\"/entries/\(removal.id)/edit\""), "a removal has no edit page")
            #expect(!today.contains("data-confirm"), "a delete asks with confirm() again")
            let page = try await browser.get("/entries/\(drink.id)/edit").text
            #expect(page.contains(#"name="amount" type="text" inputmode="decimal" autocomplete="off" required"#) && page.contains(#"value="250""#))
            #expect(page.contains(#"value="2025-06-15""#), "the drink's day")

            let saved = try await browser.post("/entries/\(drink.id)/edit",
                                               ["amount": "300", "unit": "ml", "kind": "coffee", "date": "2025-06-14", "time": "08:30"])
            #expect(saved.headers[.location] == "/day/2025-06-14", "\(saved.text)")
            guard case .intake(let changed)? = try await hydration.entry(id: drink.id) else { Issue.record("the drink is gone"); return }
            #expect(changed.volumeMl == 300 && changed.kindName == "coffee" && changed.day == LocalDate("2025-06-14")!)
            #expect(changed.at == moment("2025-06-14 08:30"), "08:30 in the person's zone")

            let ahead = try await browser.post("/entries/\(drink.id)/edit",
                                               ["amount": "300", "unit": "ml", "kind": "water", "date": "2025-06-16", "time": "08:30"])
            #expect(ahead.status == .badRequest && ahead.text.contains("That time is in the future"))
            #expect(ahead.text.contains(#"value="2025-06-16""#), "what was typed is shown again")
            #expect(try await browser.post("/entries/\(drink.id)/edit", ["amount": "300", "date": "2025-06-14", "time": "8h"]).status == .badRequest)
            #expect(try await browser.get("/entries/\(removal.id)/edit").status == .notFound)
            #expect(try await browser.get("/entries/\(bobs.id)/edit").status == .notFound)
            #expect(try await browser.post("/entries/\(bobs.id)/edit", ["amount": "1", "date": "2025-06-14", "time": "08:30"]).status == .notFound)
            guard case .intake(let untouched)? = try await HydrationService(store: f.store, clock: f.clock, user: f.bob.id).entry(id: bobs.id)
            else { Issue.record("bob's drink is gone"); return }
            #expect(untouched.volumeMl == 100)
        }
    }

    @Test("H1: a custom amount at a time typed with it counts at that time of the page's day, once however often it is sent")
    func customAmountAtATime() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            #expect(try await browser.get("/").text.contains(#"<input id="custom-time" name="time" type="time" value="">"#))
            let id = UUID()
            let form = ["mode": "add", "amount": "200", "unit": "ml", "kind": "water", "time": "09:15", "id": id.uuidString]
            #expect(try await browser.post("/entries", form).headers[.location] == "/")
            #expect(try await browser.post("/entries", form).headers[.location] == "/", "a second sending")
            let entries = try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id)
            #expect(entries.count == 1 && entries.first?.at == moment("2025-06-15 09:15") && entries.first?.id == id)
            // On a past day's page, the time is that day's.
            let past = try await browser.get("/day/2025-06-13").text
            let at = String(try #require(past.firstMatch(of: /name="at" value="([^"]+)"/)).1)
            let logged = try await browser.post("/entries", ["mode": "add", "amount": "100", "time": "21:00", "at": at])
            #expect(logged.headers[.location] == "/day/2025-06-13")
            #expect(try await f.store.entries(on: LocalDate("2025-06-13")!, of: f.ada.id).first?.at == moment("2025-06-13 21:00"))
            let refused = try await browser.post("/entries", ["mode": "add", "amount": "100", "time": "25:00"])
            #expect(refused.status == .badRequest && refused.text.contains(#"value="25:00""#), "the time typed is shown again")
        }
    }

    @Test("H4: the quick-add buttons log the drink chosen above them, water unless another is chosen")
    func quickKinds() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.addDrinkKind(name: "Maté & co", factor: 1)
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let plain = try await browser.get("/").text
            #expect(plain.contains(#"<li><a href="/" aria-current="true">Water</a></li>"#))
            #expect(plain.contains(#"<li><a href="/?kind=Mat%C3%A9%20%26%20co">Maté &amp; Co</a></li>"#), "the name is encoded in the link")
            #expect(plain.contains(#"aria-label="Add 250 ml of water""#) && !plain.contains(#"name="kind" value="water""#))
            let coffee = try await browser.get("/?kind=COFFEE").text
            #expect(coffee.contains(#"<li><a href="/?kind=coffee" aria-current="true">Coffee</a></li>"#))
            #expect(coffee.contains(#"<input type="hidden" name="kind" value="coffee">"#) && coffee.contains(#"aria-label="Add 250 ml of coffee""#))
            _ = try await browser.post("/drinks", ["volumeMl": "250", "kind": "coffee"])
            guard case .intake(let drink)? = try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).first else {
                Issue.record("nothing was logged"); return
            }
            #expect(drink.kindName == "coffee")
            // A kind that is not there to drink leaves the buttons on water.
            #expect(try await browser.get("/?kind=lava").text.contains(#"aria-label="Add 250 ml of water""#))
            let past = try await browser.get("/day/2025-06-13?kind=tea").text
            #expect(past.contains(#"<li><a href="/day/2025-06-13?kind=tea" aria-current="true">Tea</a></li>"#))
        }
    }

    @Test("H10: sips from the bottle one after another are one row of the day, which opens for each sip")
    func sipsAreOneRow() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.logDrink(.init(volumeMl: 300))
        for _ in 0..<3 {
            f.clock.advance(by: 60)
            _ = try await hydration.sip()
        }
        f.clock.advance(by: 60)
        _ = try await hydration.logDrink(.init(volumeMl: 200))
        let sip = try await hydration.bottle().sipMl
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/").text
            let rows = try #require(page.firstRange(of: /<ul class="entries" id="entries"[\s\S]*<\/ul>/).map { String(page[$0]) })
            #expect(rows.contains("<span class=\"what\">Bottle · 3 sips</span>\n<span class=\"amount\">+\(Layout.volume(3 * sip, .ml))</span>"), "\(rows)")
            #expect(rows.matches(of: /<li data-again="intake"/).count == 5, "each sip keeps its own row inside, with its delete")
            // Newest first: the 200 ml, the sips, the 300 ml.
            #expect(rows.firstRange(of: "+200 ml")!.lowerBound < rows.firstRange(of: "Bottle · 3 sips")!.lowerBound)
            #expect(rows.firstRange(of: "Bottle · 3 sips")!.lowerBound < rows.firstRange(of: "Water · 300 ml")!.lowerBound)
        }
    }

    @Test("S3: each row of a ledger's history says what the reader lent or borrowed, and opens for its shares and actions")
    func historyFromYourSide() async throws {
        let f = try await ServerFixture()
        let spending = SpendingService(store: f.store, clock: f.clock, user: f.ada.id)
        let ledger = try await spending.createLedger(name: "Flat", currency: "EUR", memberNames: ["Ada", "Ben", "Cy"]).ledger.id
        _ = try await spending.addExpense(to: ledger, .init(amount: .text("90.00"), payer: try await spending.id(of: "Ada", in: ledger), description: "Groceries"))
        _ = try await spending.addExpense(to: ledger, .init(amount: .text("30.00"), payer: try await spending.id(of: "Ben", in: ledger), description: "Bread"))
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/spending/\(ledger)").text
            #expect(page.contains(#"<span class="yours owed">you lent €60.00</span>"#), "\(page)")
            #expect(page.contains(#"<span class="yours owes">you borrowed €10.00</span>"#))
            #expect(page.contains("<details class=\"entry\">") && page.contains("Shares: Ada €30.00 · Ben €30.00 · Cy €30.00"))
            // The activity has a page of its own; the settings show its last line.
            let settings = try await browser.get("/spending/\(ledger)/settings").text
            #expect(settings.contains("href=\"/spending/\(ledger)/activity\""))
            let activity = try await browser.get("/spending/\(ledger)/activity")
            #expect(activity.status == .ok && activity.text.contains("Groceries") && activity.text.contains("Bread"))
            #expect(try await browser.get("/spending/\(UUID())/activity").status == .notFound)
        }
    }
}
