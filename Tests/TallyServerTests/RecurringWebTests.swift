import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// A ledger's recurring expenses on the web, without JavaScript: plain forms, CSRF, refusals at
/// their fields, and hostile text shown as text.
@Suite("Recurring expenses pages")
struct RecurringWebTests {
    @Test("The web page sets one up without JavaScript, lists it with its next day, pauses, resumes and ends it; hostile text stays text")
    func webPage() async throws {
        let f = try await ServerFixture(now: "2026-11-21T10:00:00Z")
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let path = "/spending/\(ledger.id)/recurring"
            #expect(try await browser.get("/spending/\(ledger.id)").text.contains(#"href="\#(path)""#))
            let empty = try await browser.get(path)
            #expect(empty.status == .ok && empty.text.contains("No recurring expenses yet"))
            #expect(empty.text.contains(#"<label for="every">Repeats</label>"#) && empty.text.contains(#"value="2026-11-21""#))

            // act: set up a rent from the 31st, split equally
            let hostile = "Rent <b>bold</b> \"quoted\" e\u{301}\u{301}"
            let added = try await browser.post(path, ["amount": "800", "description": hostile, "every": "month", "start": "2026-12-31",
                                                      "payer": String(ledger.members[1].id), "split": "equal",
                                                      "among-\(ledger.members[0].id)": "yes", "among-\(ledger.members[1].id)": "yes"])
            #expect(added.status == .seeOther, "\(added)")
            let listed = try await browser.get(path)
            #expect(listed.text.contains("Every month on the 31st · paid by Sam"), "\(listed.text)")
            #expect(listed.text.contains(#"<time datetime="2026-12-31">Dec 31, 2026</time>"#))
            #expect(!listed.text.contains("<b>") && listed.text.contains("&lt;b&gt;"))

            // act and check: refused input comes back as typed, with the reason at its field
            let refused = try await browser.post(path, ["amount": "12.345", "description": "Gym", "every": "week", "start": "2026-11-22",
                                                        "split": "equal", "among-\(ledger.members[0].id)": "yes"])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"id="amount-error">"#) && refused.text.contains(#"value="Gym""#))

            // act and check: pause, resume, end
            let id = try #require(try await client.send(.get, "/api/v1/ledgers/\(ledger.id)/recurring", token: f.adaToken)
                .decode(RecurringAPITests.ListReply.self).items.first?.id)
            for (action, shown) in [("pause", "Paused"), ("resume", "Next on"), ("end", "Ended after Nov 21, 2026")] {
                let done = try await browser.post("\(path)/\(id)", ["action": action])
                #expect(done.status == .seeOther, "\(action): \(done)")
                #expect(try await browser.get(path).text.contains(shown), "\(action)")
            }
            let forged = try await browser.post("\(path)/\(id)", ["action": "delete"], csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(try await browser.post("\(path)/\(id)", ["action": "delete"]).status == .seeOther)
            #expect(try await browser.get(path).text.contains("No recurring expenses yet"))
        }
    }

    @Test("A2: a backup restored on the settings page sets up its recurring expenses again, says so, and a merge adds none twice")
    func restoredFromBackup() async throws {
        let f = try await ServerFixture(now: "2026-11-21T10:00:00Z")
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Ada", "Sam"]}"#)
            let (ada, sam) = (ledger.members[0].id, ledger.members[1].id)
            let rent = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/recurring", token: f.adaToken, json: """
                {"amount": 800, "description": "Rent", "repeat": {"every": "month", "day": 1}, "startDate": "2026-12-01",
                 "payers": [{"member": \(ada), "paid": 500}, {"member": \(sam), "paid": 300}]}
                """)
            #expect(rent.status == .created, "\(rent)")
            let backup = try await client.send(.get, "/api/v1/export/json", token: f.adaToken).body

            let browser = WebTests.Browser(client)
            _ = try await browser.get("/signup")
            _ = try await browser.post("/signup", ["name": "carol", "password": "long enough", "timeZone": "Europe/Berlin"])
            let restored = try await browser.post("/settings/restore", [:], file: "file", backup)
            let location = try #require(restored.headers[.location], "\(restored)")
            #expect(location.contains("&recurring=1&"), "\(location)")
            #expect(try await browser.get(location).text.contains("It set up 1 recurring expense again."))
            let merged = try await browser.post("/settings/restore", ["merge": "yes"], file: "file", backup)
            #expect(merged.headers[.location]?.contains("&recurring=0&") == true, "\(merged)")

            // check: carol's copy of the ledger has the rent, as it was, once
            let carol = try #require(try await f.store.user(named: "carol")).id
            let spending = SpendingService(store: f.store, clock: f.clock, user: carol)
            let home = try #require(try await spending.ledgers().first).ledger.id
            let copies = try await spending.recurringExpenses(in: home)
            #expect(copies.map(\.title) == ["Rent (every month on the 1st)"])
            #expect(copies.first?.nextDate == LocalDate(year: 2026, month: 12, day: 1) && copies.first?.template.payers.count == 2)
        }
    }
}
