import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// The web app without JavaScript: plain forms, redirects and pages (A3).
@Suite("Web pages")
struct WebTests {
    /// A browser: its cookies, kept between requests.
    final class Browser: @unchecked Sendable {
        var cookies: [String: String] = [:]
        let client: TestClientProtocol
        /// The browser's Accept-Language; none when nil.
        var language: String?

        init(_ client: TestClientProtocol) { self.client = client }

        /// A browser that has opened the sign-in page and signed in as `name`.
        static func signedIn(_ client: TestClientProtocol, _ name: String, _ password: String) async throws -> Browser {
            let browser = Browser(client)
            _ = try await browser.get("/signin")
            _ = try await browser.post("/signin", ["name": name, "password": password])
            return browser
        }

        /// The CSRF token of the last page read, and the session it was read under: signed in, the
        /// token is the session's (in the page), not the cookie's.
        private var pageCSRF: (token: String, session: String?)?

        var csrf: String {
            guard let pageCSRF, pageCSRF.session == cookies["tally_session"] else { return cookies["tally_csrf"] ?? "" }
            return pageCSRF.token
        }

        func get(_ path: String) async throws -> Answer {
            try await request(.get, path, form: nil)
        }

        func post(_ path: String, _ fields: [String: String], csrf override: String? = nil) async throws -> Answer {
            // Signed in since the last page: a page of the new session carries its token.
            if override == nil, let session = cookies["tally_session"], pageCSRF?.session != session { _ = try await get("/account") }
            var fields = fields
            fields["csrf"] = override ?? csrf
            let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&")
            return try await request(.post, path, form: body)
        }

        /// A form with a file (`multipart/form-data`), as a browser sends a file input.
        func post(_ path: String, _ fields: [String: String], file name: String, _ contents: Data, csrf override: String? = nil) async throws -> Answer {
            if override == nil, let session = cookies["tally_session"], pageCSRF?.session != session { _ = try await get("/account") }
            let boundary = "----TallyTestBoundary\(UUID().uuidString)"
            var body = Data()
            for (key, value) in fields.merging(["csrf": override ?? csrf], uniquingKeysWith: { $1 }) {
                body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n".utf8))
            }
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"export.zip\"\r\nContent-Type: application/zip\r\n\r\n".utf8))
            body.append(contents)
            body.append(Data("\r\n--\(boundary)--\r\n".utf8))
            return try await request(.post, path, body: ByteBuffer(bytes: body), type: "multipart/form-data; boundary=\(boundary)")
        }

        private func request(_ method: HTTPRequest.Method, _ path: String, form: String?) async throws -> Answer {
            try await request(method, path, body: form.map { ByteBuffer(string: $0) }, type: "application/x-www-form-urlencoded")
        }

        func request(_ method: HTTPRequest.Method, _ path: String, body: ByteBuffer?, type: String) async throws -> Answer {
            var headers: HTTPFields = [:]
            if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            if body != nil { headers[.contentType] = type }
            if let language { headers[.acceptLanguage] = language }
            let answer = try await client.execute(uri: path, method: method, headers: headers, body: body) {
                Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body))
            }
            if let range = answer.text.range(of: #"<meta name="csrf-token" content=""#),
               let end = answer.text[range.upperBound...].firstIndex(of: "\""), end > range.upperBound {
                pageCSRF = (String(answer.text[range.upperBound..<end]), cookies["tally_session"])
            }
            for cookie in answer.headers[values: .setCookie] {
                let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                let value = pair.count > 1 ? String(pair[1]) : ""
                if cookie.contains("Max-Age=0") { cookies[String(pair[0])] = nil } else { cookies[String(pair[0])] = value }
            }
            return answer
        }
    }

    @Test("S1: an invite link names the ledger and its members before joining; a stopped one says so")
    func invitationPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home <& Garden>", "currency": "EUR"}"#)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken)
            let code = try #require(try opened.decode(LedgerReply.self).inviteCode)
            let browser = Browser(client)
            _ = try await browser.get("/signup")
            _ = try await browser.post("/signup", ["name": "carol", "password": "long enough", "timeZone": "Europe/Berlin"])
            let page = try await browser.get("/join/\(code)")
            #expect(page.text.contains("You are invited to <strong>Home &lt;&amp; Garden&gt;</strong> (EUR), kept by Person 1, Person 2."), "\(page.text)")
            #expect(page.text.contains("value=\"\(code)\""))
            _ = try await client.send(.delete, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken)
            let stopped = try await browser.get("/join/\(code)")
            #expect(stopped.text.contains("This invite is not valid any more; ask for a new one.") && !stopped.text.contains("Garden"))
        }
    }

    @Test("S1: the invite page asks who you are: a member nobody has joined as, or someone new")
    func joinAsChosenMember() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            // setup: ada's ledger with three members bob could be
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Trip", "currency": "EUR", "members": ["Alex", "Sam", "Kim", "Lee"]}"#)
            let opened = try await client.send(.post, "/api/v1/ledgers/\(ledger.id)/invite", token: f.adaToken)
            let code = try #require(try opened.decode(LedgerReply.self).inviteCode)
            let kim = ledger.members[2].id
            let browser = try await Browser.signedIn(client, "bob", "battery staple")

            // act: the link
            let page = try await browser.get("/join/\(code)")

            // check: a radio per free member and one for someone new, none ticked among several
            for member in ledger.members.dropFirst() {
                #expect(page.text.contains(#"<input type="radio" name="member" id="join-as-\#(member.id)" value="\#(member.id)" required>"#), "\(page.text)")
            }
            #expect(page.text.contains(#"value="new" required>"#) && page.text.contains("Who are you in Trip?"))
            #expect(!page.text.contains("join-as-\(ledger.members[0].id)"))

            // act: no choice (the code typed on the start page) leads to the choice; then Kim
            let typed = try await browser.post("/spending/join", ["code": code.lowercased()])
            #expect(typed.status == .seeOther && typed.headers[.location] == "/join/\(code)")
            let joined = try await browser.post("/spending/join", ["code": code, "member": String(kim)])

            // check: bob is Kim, not the first free member
            #expect(joined.headers[.location] == "/spending/\(ledger.id)", "\(joined.text)")
            let bobs = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: f.bobToken).decode(LedgerReply.self)
            #expect(bobs.members.first { $0.isYou }?.name == "Kim")
            // The settings page offers bob no invite and no removal: those are ada's.
            let settings = try await browser.get("/spending/\(ledger.id)/settings")
            #expect(settings.text.contains("Only Alex, who owns this ledger, can invite people."), "\(settings.text)")
            #expect(!settings.text.contains("Create an invite") && !settings.text.contains("aria-label=\"Remove Sam\""))
            // Who owns it is said at the owner's own row.
            #expect(settings.text.firstRange(of: /value="Alex"[^<]*>[\s\S]*?<\/form><p class="help">has joined, owner<\/p>/) != nil)
        }
    }

    @Test("S1: a new invite's code is on the page that opened it, with the owner's terms, and nowhere after")
    func inviteShownOnce() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR"}"#)
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let before = try await browser.get("/spending/\(ledger.id)/settings")
            #expect(before.text.contains("<summary>Lasts 7 days, for one person: change</summary>"), "\(before.text)")

            let opened = try await browser.post("/spending/\(ledger.id)/invite", ["action": "open", "days": "3", "uses": "2"])

            #expect(opened.status == .ok)
            let code = try #require(opened.text.firstMatch(of: /<strong class="code">([A-Z0-9-]{14})<\/strong>/)?.1)
            #expect(opened.text.contains("An invite is open until Jun 18, 2025 at 12:00\u{00A0}PM, for 2 more people."), "\(opened.text)")
            let later = try await browser.get("/spending/\(ledger.id)/settings")
            #expect(!later.text.contains(String(code)) && later.text.contains("An invite is open until"))
        }
    }

    @Test("Signed-out visitors are sent to sign in; pages set the CSRF cookie")
    func signedOut() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = Browser(client)
            for path in ["/", "/history", "/settings", "/onboarding"] {
                let answer = try await browser.get(path)
                #expect(answer.status == .seeOther && answer.headers[.location] == "/signin", "\(path): \(answer.status)")
            }
            let page = try await browser.get("/signin")
            #expect(page.status == .ok && page.text.contains("<h1>Sign in</h1>"))
            #expect(!browser.csrf.isEmpty && page.text.contains(browser.csrf))
        }
    }

    @Test("A1, H12: sign up, onboarding with the goal's breakdown, then today with that goal")
    func signUpAndOnboard() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = Browser(client)
            _ = try await browser.get("/signup")
            let signedUp = try await browser.post("/signup", ["name": "carol", "password": "long enough", "timeZone": "Europe/Berlin"])
            #expect(signedUp.headers[.location] == "/onboarding" && browser.cookies["tally_session"] != nil)
            let preview = try await browser.post("/onboarding", ["age": "65", "weight": "70", "activity": "light", "action": "preview"])
            #expect(preview.text.contains("Base 1750 ml (25 ml per kg)") && preview.text.contains("= 2000 ml a day"))
            let refused = try await browser.post("/onboarding", ["age": "150", "weight": "70", "activity": "light", "action": "save"])
            #expect(refused.status == .badRequest && refused.text.contains("Age must be between 10 and 120 years"))
            let saved = try await browser.post("/onboarding", ["age": "65", "weight": "70", "activity": "light", "action": "save"])
            #expect(saved.headers[.location] == "/")
            let today = try await browser.get("/")
            #expect(today.text.contains("of 2000 ml") && today.text.contains("No drinks yet today."))
            #expect(try await f.store.account(named: "carol")?.isAdmin == false)
        }
    }

    @Test("H1–H3: presets, a custom amount, a removal and a delete through plain forms")
    func todayForms() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            #expect(try await browser.post("/drinks", ["volumeMl": "250"]).headers[.location] == "/")
            _ = try await browser.post("/entries", ["mode": "add", "amount": "200", "kind": "coffee"])
            _ = try await browser.post("/entries", ["mode": "remove", "amount": "100"])
            var page = try await browser.get("/")
            #expect(page.text.contains("<span class=\"big\" id=\"total\">320 ml</span>"), "\(page.text)")
            #expect(page.text.contains("13 %"))
            // A removal larger than the day's total is refused on the page, naming the most.
            let refused = try await browser.post("/entries", ["mode": "remove", "amount": "1000"])
            #expect(refused.status == .conflict && refused.text.contains("at most 320 ml can be removed"))
            let invalid = try await browser.post("/entries", ["mode": "add", "amount": "abc"])
            #expect(invalid.status == .badRequest && invalid.text.contains("is not an amount"))
            // Delete asks first, then deletes.
            let day = try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id)
            let removal = try #require(day.first { if case .removal = $0 { true } else { false } })
            let confirm = try await browser.post("/entries/\(removal.id)/delete", [:])
            #expect(confirm.status == .ok && confirm.text.contains("Delete the removal of 100 ml?"))
            #expect(try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).count == 3)
            _ = try await browser.post("/entries/\(removal.id)/delete", ["confirm": "yes"])
            page = try await browser.get("/")
            #expect(page.text.contains("<span class=\"big\" id=\"total\">420 ml</span>"))
        }
    }

    @Test("A past day's page logs to that day (its forms carry the moment), lists the newest first, and goes back to that day")
    func pastDayLogsThere() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/day/2025-06-13").text
            #expect(page.contains("<h1 id=\"day-title\">Fri, Jun 13</h1>"), "the title is the day as people write it")
            #expect(try await browser.get("/day/2025-06-14").text.contains("<h1 id=\"day-title\">Yesterday</h1>"))
            let at = String(try #require(page.firstMatch(of: /name="at" value="([^"]+)"/)).1)
            let moment = try #require(ISO8601DateFormatter().date(from: at))
            #expect(LocalDate(containing: moment, in: TimeZone(identifier: "Europe/Berlin")!) == LocalDate("2025-06-13")!)
            // The quick add, the removal and the custom amount all count for that day.
            #expect(try await browser.post("/drinks", ["volumeMl": "250", "at": at]).headers[.location] == "/day/2025-06-13")
            _ = try await browser.post("/entries", ["mode": "add", "amount": "200", "kind": "coffee", "at": at])
            _ = try await browser.post("/removals", ["volumeMl": "100", "at": at])
            #expect(try await f.store.entries(on: LocalDate("2025-06-13")!, of: f.ada.id).count == 3)
            #expect(try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).isEmpty, "nothing went to today")
            // Today's page logs now: no moment in its forms.
            #expect(!(try await browser.get("/").text.contains("name=\"at\"")))
            // Newest first, each at its time as the locale writes it.
            _ = try await browser.post("/drinks", ["volumeMl": "300"])
            f.clock.advance(by: 3600)
            _ = try await browser.post("/drinks", ["volumeMl": "400"])
            let today = try await browser.get("/").text
            let amounts = today.matches(of: /<span class="amount">\+([0-9]+) ml<\/span>/).map { String($0.1) }
            #expect(amounts == ["400", "300"], "\(amounts)")
            #expect(today.contains(">1:00\u{00A0}PM</time>") && today.contains(">12:00\u{00A0}PM</time>"), "\(today)")
            #expect(try await browser.post("/drinks", ["volumeMl": "250", "at": "yesterday"]).status == .badRequest)
        }
    }

    @Test("A form without the CSRF token changes nothing")
    func csrf() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let forged = try await browser.post("/drinks", ["volumeMl": "250"], csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).isEmpty)
        }
    }

    @Test("A wrong password is refused on the page and slows down after repeats")
    func wrongPassword() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = Browser(client)
            _ = try await browser.get("/signin")
            let wrong = try await browser.post("/signin", ["name": "ada", "password": "nope nope"])
            #expect(wrong.status == .unauthorized && wrong.text.contains("The user name or the password is wrong."))
            #expect(browser.cookies["tally_session"] == nil)
        }
    }

    @Test("What users typed is escaped, never markup")
    func escaping() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.addDrinkKind(name: "<script>x</script>", factor: 1)
        _ = try await hydration.logDrink(.init(volumeMl: 100, kindName: "<script>x</script>"))
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            for path in ["/", "/settings/kinds"] {
                let page = try await browser.get(path)
                #expect(!page.text.contains("<script>x"), "\(path)")
                #expect(page.text.contains("&lt;script&gt;x"), "\(path)")
            }
        }
    }

    @Test("H9: history shows the week, the month with met days, and the streak; settings save")
    func historyAndSettings() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        for date in ["2025-06-13", "2025-06-14"] {
            _ = try await hydration.logDrink(.init(volumeMl: 2500, at: ISO8601DateFormatter().date(from: date + "T10:00:00Z")))
        }
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let history = try await browser.get("/history")
            #expect(history.text.contains("aria-label=\"June 13, goal met\"") && history.text.contains("aria-label=\"June 15, goal not met\""))
            #expect(history.text.contains("<span class=\"big\">2</span> days in a row"))
            #expect(history.text.contains("href=\"/history?month=2025-05\"") && history.text.contains("href=\"/history?month=2025-07\""))
            let previous = try await browser.get("/history?month=2025-05")
            #expect(previous.text.contains("May 2025"))
            #expect(try await browser.post("/settings/general", ["unit": "oz", "timeZone": "America/New_York"]).headers[.location] == "/settings/unit-zone?saved=unit-zone")
            let badZone = try await browser.post("/settings/general", ["unit": "ml", "timeZone": "Mars/Olympus"])
            #expect(badZone.status == .badRequest && badZone.text.contains("IANA"))
            #expect(try await hydration.settings().unit == .oz)
            _ = try await browser.post("/settings/goal", ["mode": "custom", "amount": "80"])
            #expect(try await hydration.goalStatus().goalMl == 80 * VolumeUnit.mlPerFluidOunce)
            _ = try await browser.post("/settings/presets", ["preset0": "6", "preset1": "12", "preset2": "20"])
            #expect(try await hydration.settings().presets.amountsMl.map { ($0 / VolumeUnit.mlPerFluidOunce).rounded() } == [6, 12, 20])
        }
    }

    @Test("H9: the week's chart writes each day's total, the goal once with its value, marks today, and has a table")
    func weekChart() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.setGoal(.custom(ml: 2000))
        for (date, ml) in [("2025-06-13", 2500.0), ("2025-06-14", 1250), ("2025-06-15", 300)] {
            _ = try await hydration.logDrink(.init(volumeMl: ml, at: ISO8601DateFormatter().date(from: date + "T10:00:00Z")))
        }
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/history").text
            let svg = try #require(page.firstRange(of: /<svg class="chart"[\s\S]*?<\/svg>/).map { String(page[$0]) })
            // The drawing is for the eyes; the table says the same to a screen reader.
            #expect(svg.contains(#"aria-hidden="true""#))
            for value in ["2500", "1250", "300", "0"] {
                #expect(svg.contains(">\(value)</text>"), "no \(value) above its bar")
            }
            // A line of each day's goal: 2500 ml over the six days before (the top of the drawing,
            // y 28), a step down to today's 2000 ml (y 56) over today's column and to the label.
            #expect(svg.contains(#"<path class="goal-line" d="M0 28H276V56H326"></path>"#), "\(svg)")
            #expect(!svg.contains("stroke-dasharray"))
            #expect(svg.contains(">2000 ml</text>") && svg.contains(">Goal</text>"))
            #expect(svg.contains("class=\"bar today\"") && svg.contains(">Today</text>"))
            #expect(page.contains(#"<table id="week-table">"#))
            #expect(page.contains(#"<tr aria-current="date"><th scope="row">Today, Sun 15</th><td>300 ml</td><td>2000 ml</td><td>15 %</td></tr>"#), "\(page)")
            // Each day against the goal it had (the goal set today starts today); the line is today's.
            #expect(page.contains("<th scope=\"row\">Fri 13</th><td>2500 ml</td><td>2500 ml</td><td>100 %, met</td>"))
            #expect(page.contains("the line is your goal, 2000 ml"))

            // In ounces, the numbers are ounces.
            _ = try await hydration.setUnit(.oz)
            let ounces = try await browser.get("/history").text
            #expect(ounces.contains(">85</text>") && ounces.contains(">67.6 oz</text>"), "\(ounces)")
        }
    }

    @Test("The manifest's shortcuts open the quick-add buttons by place, at addresses the router has")
    func manifestShortcuts() throws {
        let manifest = try JSONSerialization.jsonObject(with: Data(WebManifest.bytes(for: .english))) as? [String: Any]
        let shortcuts = try #require(manifest?["shortcuts"] as? [[String: Any]])
        let urls = shortcuts.compactMap { $0["url"] as? String }
        #expect(Array(urls.prefix(3)) == (1...3).map { SitePath.quickAdd.link($0) })
        #expect(urls.allSatisfy { SitePath.quickAdd.matches($0) || $0 == SitePath.bottle.link || $0 == SitePath.spending.link }, "\(urls)")
        for shortcut in shortcuts.prefix(3) {
            #expect((shortcut["name"] as? String)?.isEmpty == false && (shortcut["short_name"] as? String)?.isEmpty == false)
        }
    }

    @Test("A quick add: the GET only asks; the form logs once under its id; a reload or a resend logs nothing more")
    func quickAdd() async throws {
        let f = try await ServerFixture()
        let today = LocalDate("2025-06-15")!
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let ask = try await browser.get("/quick/2")
            #expect(ask.status == .ok && ask.text.contains("Log 250 ml of water?"), "\(ask.text)")
            #expect(try await f.store.entries(on: today, of: f.ada.id).isEmpty, "a GET logged a drink")
            // Opened from nowhere the server can tell (no Sec-Fetch-Site), the page waits for a tap.
            #expect(!ask.text.contains("data-auto-submit"))
            let id = try #require(ask.text.firstMatch(of: /name="id" value="([0-9A-F-]{36})"/).map { String($0.1) })
            #expect(ask.text.contains(#"name="volumeMl" value="250.0""#))

            let logged = try await browser.post("/quick/2", ["id": id, "volumeMl": "250.0"])
            #expect(logged.status == .seeOther && logged.headers[.location] == "/quick/2?logged=\(id)")
            let shown = try await browser.get("/quick/2?logged=\(id)")
            #expect(shown.text.contains("Logged 250 ml of water at"), "\(shown.text)")
            #expect(shown.text.contains("Today: 250 ml"))
            // The reload of the answer shows it again, and logs nothing.
            _ = try await browser.get("/quick/2?logged=\(id)")
            // The same form sent again: one drink, and the answer says so.
            let again = try await browser.post("/quick/2", ["id": id, "volumeMl": "250.0"])
            #expect(again.headers[.location] == "/quick/2?already=\(id)")
            #expect(try await browser.get("/quick/2?already=\(id)").text.contains("Already logged: 250 ml of water at"))
            #expect(try await f.store.entries(on: today, of: f.ada.id).count == 1)

            // Without the CSRF token nothing is logged.
            let forged = try await browser.post("/quick/1", ["id": UUID().uuidString, "volumeMl": "100"], csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(try await f.store.entries(on: today, of: f.ada.id).count == 1)
            // A button the person does not have.
            #expect(try await browser.get("/quick/4").status == .notFound)
            let hostile = try await browser.get("/quick/%3Cscript%3E")
            #expect(hostile.status == .notFound && !hostile.text.contains("<script>"))
        }
    }

    @Test("A quick add opened by the person sends itself; opened from another site or prefetched, it waits for a tap")
    func quickAddSendsItselfOnlyWhenOpenedByThePerson() {
        func request(_ fields: [(String, String)]) -> Request {
            var headers = HTTPFields()
            for (name, value) in fields { headers[HTTPField.Name(name)!] = value }
            return Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/quick/1", headerFields: headers),
                           body: RequestBody(buffer: ByteBuffer()))
        }
        #expect(QuickAddWebController.openedByThePerson(request([("Sec-Fetch-Site", "none")])))
        #expect(QuickAddWebController.openedByThePerson(request([("Sec-Fetch-Site", "same-origin")])))
        #expect(!QuickAddWebController.openedByThePerson(request([("Sec-Fetch-Site", "cross-site")])))
        #expect(!QuickAddWebController.openedByThePerson(request([("Sec-Fetch-Site", "same-site")])))
        #expect(!QuickAddWebController.openedByThePerson(request([])))
        #expect(!QuickAddWebController.openedByThePerson(request([("Sec-Fetch-Site", "none"), ("Sec-Purpose", "prefetch;prerender")])))
    }

    @Test("What users typed stays escaped on the quick add's answer and the week's chart")
    func quickAddEscapes() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.addDrinkKind(name: "<img src=x onerror=alert(1)>", factor: 1)
        let (intake, _) = try await hydration.logDrink(.init(volumeMl: 100, kindName: "<img src=x onerror=alert(1)>"))
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            for path in ["/quick/1?logged=\(intake.id)", "/history"] {
                let page = try await browser.get(path).text
                #expect(!page.contains("<img src=x"), "\(path)")
            }
            #expect(try await browser.get("/quick/1?logged=\(intake.id)").text.contains("&lt;img src=x onerror=alert(1)&gt;"))
        }
    }

    @Test("Settings open with a row per section that says what it is set to; each section is a page its form comes back to")
    func settingsSections() async throws {
        let f = try await ServerFixture()
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.setProfile(Profile(age: 40, weightKg: 70.5, activity: .active))
        _ = try await hydration.setGoal(.custom(ml: 2250))
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/settings").text
            for section in SettingsSection.allCases {
                #expect(page.contains("<a href=\"/settings/\(section.rawValue)\"><span class=\"what\">\(section.title)</span>"), "\(section)")
                let own = try await browser.get("/settings/\(section.rawValue)")
                #expect(own.status == .ok && own.text.contains("<section id=\"\(section.rawValue)\""), "no page for \(section)")
                #expect(own.text.contains(#"<p class="back"><a href="/settings">Settings</a></p>"#), "\(section): no way back")
            }
            #expect(page.contains(#"<span class="value">2250 ml a day, your own</span>"#))
            #expect(page.contains(#"<span class="value">40 years, 70.5 kg, active</span>"#))
            #expect(page.contains(#"<span class="value">100 ml · 250 ml · 500 ml</span>"#))
            #expect(page.contains(#"<span class="value">Off</span>"#), "the reminders are off")
            #expect(page.contains("href=\"/account\"") && page.contains("href=\"/bottle\""))
            // Each form sends the browser back to its own page, saying so at the top.
            let goalPage = try await browser.get("/settings/goal").text
            #expect(goalPage.contains(#"action="/settings/goal""#))
            let saved = try await browser.post("/settings/goal", ["mode": "none"])
            #expect(saved.headers[.location] == "/settings/goal?saved=goal")
            let shown = try await browser.get("/settings/goal?saved=goal").text
            #expect(shown.contains(#"<p class="message notice" role="status">Saved.</p>"#))
            #expect(try await browser.get("/settings").text.contains(#"<span class="value">No goal, just totals</span>"#))
            let refused = try await browser.post("/settings/reminders", ["wake": "7", "sleep": "23:00", "frequency": "8"])
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"<p class="message error" role="alert">Write the times as HH:MM"#))
            #expect(refused.text.contains(#"<section id="reminders""#), "the refusal is not on the reminders' page")
            #expect(try await browser.post("/settings/calendar", ["action": "stop"]).headers[.location] == "/settings/calendar?saved=calendar")
        }
    }
}

@Suite("Web pages in ounces")
struct OunceWebTests {
    @Test("H1, H5: the custom amount takes a unit: the one chosen beside it (the user's by default), or one typed with the number")
    func customUnit() async throws {
        let f = try await ServerFixture()
        _ = try await HydrationService(store: f.store, clock: f.clock, user: f.ada.id).setUnit(.oz)
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/").text
            #expect(page.contains(#"<option value="oz" data-ml="29.5735" selected>oz</option>"#), "oz is chosen for a user in oz")
            #expect(page.contains(#"data-max-ml="5000.0""#))
            _ = try await browser.post("/entries", ["mode": "add", "amount": "8", "unit": "oz"])
            _ = try await browser.post("/entries", ["mode": "add", "amount": "8oz", "unit": "ml"])
            _ = try await browser.post("/entries", ["mode": "add", "amount": "250 ml", "unit": "oz"])
            let refused = try await browser.post("/entries", ["mode": "add", "amount": "8 cups", "unit": "ml"])
            #expect(refused.status == .badRequest && refused.text.contains("is not an amount: write a number, optionally followed by ml or oz"))
            #expect(refused.text.contains(#"value="8 cups""#), "the refused amount comes back as typed")
            let volumes = try await f.store.entries(on: LocalDate("2025-06-15")!, of: f.ada.id).compactMap { entry -> Double? in
                if case .intake(let intake) = entry { intake.volumeMl } else { nil }
            }
            let expected = [8 * VolumeUnit.mlPerFluidOunce, 8 * VolumeUnit.mlPerFluidOunce, 250]
            #expect(volumes.sorted().map { ($0 * 10).rounded() } == expected.sorted().map { ($0 * 10).rounded() }, "\(volumes)")
        }
    }
}
