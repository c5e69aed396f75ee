import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// The web app's conventions: which pages need someone signed in, how a refused form comes back,
/// and the addresses pages link to.
@Suite("Web conventions")
struct WebConventionTests {
    /// The web routes anyone may ask for: signing in, up and out. The admin's answer 404 to
    /// anyone but the admin.
    static let open: Set<String> = [SitePath.signIn.template, SitePath.signUp.template, SitePath.signOut.template]

    /// The name of a route's parameter, from a component of its path ("{ledger}", or ":ledger").
    static func parameter(_ component: Substring) -> String? {
        if component.hasPrefix(":") { return String(component.dropFirst()) }
        if component.hasPrefix("{"), component.hasSuffix("}") { return String(component.dropFirst().dropLast()) }
        return nil
    }

    /// A route's pattern with `values` for its parameters.
    static func address(_ pattern: String, _ values: [String: String]) -> String {
        "/" + pattern.split(separator: "/").map { part in parameter(part).map { values[$0] ?? "x" } ?? String(part) }
            .joined(separator: "/")
    }

    @Test("Every page and form that needs someone signed in, asked without a session, sends the browser to /signin (an invite link to sign up and join)")
    func signInFirst() async throws {
        let f = try await ServerFixture()
        let pages = Router(context: TallyRequestContext.self)
        addWebApp(to: pages, services: APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                                   push: PushCenter(store: f.store, contact: "mailto:tally@localhost")))
        let routes = pages.routes.map { ($0.method, $0.path.description) }
        let values = ["ledger": UUID().uuidString, "id": UUID().uuidString, "member": "1", "date": "2025-06-15",
                      "code": "AAAA-BBBB-CCCC", "name": "ada"]
        try await f.test { client in
            var asked = 0
            for (method, routePath) in routes {
                let pattern = routePath.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                guard !Self.open.contains(pattern) else { continue }
                let path = Self.address(pattern, values)
                let browser = WebTests.Browser(client)
                let answer = method == .get ? try await browser.get(path) : try await browser.post(path, ["amount": "250"])
                if pattern.hasPrefix("admin") {
                    #expect(answer.status == .notFound, "\(method) \(path): \(answer.status)")
                } else if method == .get, path.hasPrefix("/join/") {
                    // A ledger's invite link: to the page that creates an account and joins.
                    #expect(answer.status == .seeOther && answer.headers[.location] == "/signup?join=AAAA-BBBB-CCCC", "\(path)")
                } else {
                    #expect(answer.status == .seeOther && answer.headers[.location] == "/signin", "\(method) \(path): \(answer.status)")
                    // Even this answer gives a new browser the CSRF token the sign-in form repeats.
                    #expect(browser.cookies["tally_csrf"] != nil, "\(method) \(path)")
                }
                asked += 1
            }
            #expect(asked > 40)
            for path in ["/signin", "/signup"] {
                #expect(try await WebTests.Browser(client).get(path).status == .ok, "\(path)")
            }
        }
    }

    @Test("H10: a refusal about one field comes back at that field, with what was typed; any other without either")
    func refusalAtItsField() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")

            let tooBig = try await browser.post("/bottle/settings", ["capacity": "6000", "sip": "100"])

            #expect(tooBig.status == .badRequest && tooBig.text.contains("A bottle holds at most 5000 ml."), "\(tooBig)")
            #expect(tooBig.text.contains(#"name="capacity" inputmode="decimal" required value="6000" aria-describedby="capacity-error" aria-invalid="true" autofocus>"#), "\(tooBig.text)")
            // Said at the field too, not only in the banner at the top of the page.
            #expect(tooBig.text.contains(#"<p class="field-error" id="capacity-error">A bottle holds at most 5000 ml.</p>"#))
            #expect(tooBig.text.contains(#"name="sip" inputmode="decimal" required value="100" aria-describedby="sip-error">"#))
            #expect(tooBig.text.contains(#"<p class="field-error" id="sip-error"></p>"#))
            // The sip is checked by the service against the new capacity, and said at the sip.
            let bigSip = try await browser.post("/bottle/settings", ["capacity": "500", "sip": "600"])
            #expect(bigSip.text.contains(#"<p class="field-error" id="sip-error">A sip can be at most the bottle&#39;s 500 ml.</p>"#), "\(bigSip.text)")
            #expect(bigSip.text.contains(#"value="600" aria-describedby="sip-error" aria-invalid="true" autofocus>"#))
            #expect(try await !browser.get("/bottle").text.contains(#"name="capacity" inputmode="decimal" required value="500""#), "nothing saved")

            let notANumber = try await browser.post("/bottle/level", ["levelMl": "lots"])

            #expect(notANumber.status == .badRequest && notANumber.text.contains("The level must be a number"), "\(notANumber)")
            #expect(!notANumber.text.contains("aria-invalid"))
            #expect(try await browser.post("/bottle/level", ["fill": "yes"]).headers[.location] == "/bottle")
        }
    }

    @Test("S2: a refused expense shows the page again with the reason at its field and what was typed")
    func expenseRefusedAtItsField() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Sam"]}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let among = Dictionary(uniqueKeysWithValues: ledger.members.map { ("among-\($0.id)", "on") })

            let refused = try await browser.post("/spending/\(ledger.id)/expenses",
                                                 among.merging(["amount": "12,345.678", "description": "Groceries"]) { $1 })

            #expect(refused.status == .badRequest, "\(refused)")
            #expect(refused.text.contains(#"value="12,345.678" aria-describedby="amount-error" aria-invalid="true""#), "\(refused.text)")
            #expect(refused.text.contains(#"value="Groceries""#))
            let added = try await browser.post("/spending/\(ledger.id)/expenses", among.merging(["amount": "12.50"]) { $1 })
            #expect(added.headers[.location] == "/spending/\(ledger.id)")
        }
    }

    @Test("Every link and form of every page, as the admin sees them, leads to an address the router has")
    func linksLeadSomewhere() async throws {
        let f = try await ServerFixture()
        let pages = Router(context: TallyRequestContext.self)
        addWebApp(to: pages, services: APIServices(store: f.store, clock: f.clock, accounts: f.accounts,
                                                   push: PushCenter(store: f.store, contact: "mailto:tally@localhost")))
        AppShellController().addRoutes(to: pages)
        let routes = pages.routes.map { ($0.method, $0.path.description) }
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Home", "currency": "EUR", "members": ["Sam"]}"#)
            _ = try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: #"{"volumeMl": 250}"#)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let values = ["ledger": ledger.id.uuidString, "date": "2025-06-15", "code": "AAAA-BBBB-CCCC"]
            var links = 0
            for (method, pattern) in routes where method == .get && !pattern.hasSuffix(".csv") && !pattern.hasSuffix(".json") {
                let path = Self.address(pattern, values)
                let page = try await browser.get(path)
                guard page.headers[.contentType]?.hasPrefix("text/html") == true else { continue }
                #expect(!page.text.contains("\\("), "\(path) shows Swift's interpolation as text")
                for match in page.text.matches(of: /(?:href|action)="(\/[^"?#]*)/) {
                    let link = String(match.1)
                    guard !link.hasPrefix("/static/") else { continue }
                    let fits = routes.contains { _, pattern in
                        let parts = pattern.split(separator: "/"), linkParts = link.split(separator: "/")
                        return parts.count == linkParts.count && zip(parts, linkParts).allSatisfy { Self.parameter($0) != nil || $0 == $1 }
                    }
                    #expect(fits, "\(path) links to \(link), which no route has")
                    links += 1
                }
            }
            #expect(links > 100)
        }
    }

    @Test("A link to an address fills its pattern's parameters in order, and fits the pattern")
    func links() {
        let ledger = UUID(), entry = UUID()
        #expect(SitePath.today.link == "/")
        #expect(SitePath.settings.link + "?saved=1" == "/settings?saved=1")
        #expect(SitePath.day.link(LocalDate("2025-03-30")!) == "/day/2025-03-30")
        #expect(SitePath.member.link(ledger, 3) == "/spending/\(ledger)/members/3")
        #expect(SitePath.deleteLedgerEntry.link(ledger, entry) == "/spending/\(ledger)/entries/\(entry)/delete")
        #expect(SitePath.deleteLedgerEntry.matches(SitePath.deleteLedgerEntry.link(ledger, entry)))
        #expect(SitePath.invitation.matches("/join/AAAA-BBBB-CCCC") && !SitePath.invitation.matches("/spending/join"))
        #expect(SitePath.kind.routerPath.description == RouterPath("settings/kinds/:id").description)
    }
}
