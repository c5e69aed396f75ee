import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import Testing

/// Signing in through an OpenID provider, as far as it goes without one: the pages that offer
/// it, passwords turned off, and every answer that does not belong to this browser's sign-in
/// refused before the provider is asked. Tests/oidc runs the whole round trip against a real
/// provider.
@Suite("Signing in through a provider: the pages, and answers refused")
struct ProviderSignInWebTests {
    typealias Browser = WebTests.Browser

    /// A provider on a port nobody listens on (9, discard): any request to it fails.
    static func withProvider(passwords: Bool = true) async throws -> ServerFixture {
        var f = try await ServerFixture()
        f.configuration.openID = try OpenIDSettings(issuer: "http://127.0.0.1:9", clientID: "tally", clientSecret: "s3cret", name: "Test ID")
        f.configuration.passwordSignIn = passwords
        return f
    }

    @Test("The sign-in, sign-up and invite pages offer the provider above the password form, carrying the invite along")
    func offered() async throws {
        let f = try await Self.withProvider()
        try await f.test { client in
            let browser = Browser(client)
            let signIn = try await browser.get("/signin")
            #expect(signIn.text.contains(#"<a class="button primary" href="/signin/oidc">Sign in with Test ID</a>"#), "\(signIn)")
            #expect(signIn.text.contains(#"type="password""#))
            let signUp = try await browser.get("/signup?invite=abc123")
            #expect(signUp.text.contains(#"href="/signin/oidc?invite=abc123""#), "\(signUp)")
            let joining = try await browser.get("/signin?next=/join/ABCD-EFGH")
            #expect(joining.text.contains(#"href="/signin/oidc?join=ABCD-EFGH""#), "\(joining)")
        }
        // Without a provider, nothing of it.
        try await ServerFixture().test { client in
            let page = try await Browser(client).get("/signin")
            #expect(!page.text.contains("/signin/oidc"))
            #expect(try await Browser(client).get("/signin/oidc").status == .notFound)
        }
    }

    @Test("With passwords off the pages offer the provider only, and a right password signs nobody in (403)")
    func passwordsOff() async throws {
        let f = try await Self.withProvider(passwords: false)
        try await f.test { client in
            let browser = Browser(client)
            let page = try await browser.get("/signin")
            #expect(page.text.contains("Sign in with Test ID") && !page.text.contains(#"type="password""#), "\(page)")
            #expect(!(try await browser.get("/signup")).text.contains(#"type="password""#))
            let refused = try await browser.post("/signin", ["name": "ada", "password": "correct horse"])
            #expect(refused.status == .forbidden, "\(refused)")
            #expect(refused.text.contains("This server does not take passwords: sign in through your provider."))
            #expect(browser.cookies["tally_session"] == nil)
            let signUp = try await browser.post("/signup", ["name": "carol", "password": "long enough password"])
            #expect(signUp.status == .forbidden)
            #expect(try await f.store.user(named: "carol") == nil)
        }
    }

    @Test("An answer without this browser's sign-in, with a forged, expired or other state, is refused before the provider is asked")
    func foreignAnswers() async throws {
        let f = try await Self.withProvider()
        let key = try await f.accounts.flowKey()
        let now = f.clock.now
        let flow = OpenIDFlow(purpose: .signIn, startedAt: now)
        let stale = OpenIDFlow(purpose: .signIn, startedAt: now.addingTimeInterval(-OpenIDFlow.lifetime - 1))
        try await f.test { client in
            func answer(_ cookie: String?, state: String) async throws -> Answer {
                let browser = Browser(client)
                if let cookie { browser.cookies["tally_oidc"] = cookie }
                let answer = try await browser.get("/signin/oidc/callback?code=a-code&state=\(state)")
                #expect(browser.cookies["tally_session"] == nil)
                #expect(answer.headers[values: .setCookie].contains { $0.hasPrefix("tally_oidc=;") && $0.contains("Max-Age=0") },
                        "the flow's cookie goes: \(answer.headers)")
                return answer
            }
            let refusal = "This sign-in&#39;s answer does not belong to this browser, or came too late: sign in again."
            for (cookie, state) in [(nil, flow.state), ("garbage", flow.state), (try flow.sealed(with: key), "other"),
                                    (try stale.sealed(with: key), stale.state), (try flow.sealed(with: SymmetricKey(size: .bits256)), flow.state)] {
                let refused = try await answer(cookie, state: state)
                #expect(refused.status == .badRequest, "\(refused)")
                #expect(refused.text.contains(refusal) || refused.text.contains(refusal.replacingOccurrences(of: "&#39;", with: "'")), "\(refused)")
            }
            // The right flow gets as far as the provider, which cannot be reached here: 503, in words.
            let unreachable = try await answer(try flow.sealed(with: key), state: flow.state)
            #expect(unreachable.status == .serviceUnavailable, "\(unreachable)")
            #expect(unreachable.text.contains("Signing in through Test ID does not work right now: try again later."))
        }
    }

    @Test("Each answer that reaches the provider counts against its address: after 20 the next waits (429)")
    func answersAreThrottled() async throws {
        let f = try await Self.withProvider()
        let key = try await f.accounts.flowKey()
        let flow = OpenIDFlow(purpose: .signIn, startedAt: f.clock.now)
        let sealed = try flow.sealed(with: key)
        try await f.test { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 1...22 {
                let browser = Browser(client)
                browser.cookies["tally_oidc"] = sealed
                statuses.append(try await browser.get("/signin/oidc/callback?code=made-up&state=\(flow.state)").status)
            }
            #expect(statuses.prefix(20).allSatisfy { $0 == .serviceUnavailable }, "\(statuses)")
            #expect(statuses.suffix(2).allSatisfy { $0 == .tooManyRequests }, "\(statuses)")
        }
    }

    @Test("Linking needs the page's CSRF token; the way to an unreachable provider answers 503 in words")
    func linkAndUnreachable() async throws {
        let f = try await Self.withProvider()
        try await f.test { client in
            let browser = try await Browser.signedIn(client, "ada", "correct horse")
            #expect(try await browser.post("/account/oidc", [:], csrf: "forged").status == .forbidden)
            #expect(try await browser.post("/account/oidc/unlink", [:], csrf: "forged").status == .forbidden)
            let account = try await browser.get("/account")
            #expect(account.text.contains("Link your account to Test ID"), "\(account)")
            let start = try await Browser(client).get("/signin/oidc")
            #expect(start.status == .serviceUnavailable && start.text.contains("does not work right now"), "\(start)")
        }
    }

    @Test("The settings: an https issuer (http on this machine only), a client id and secret, a short name",
          arguments: [("http://id.example.com", "tally", "s", nil as String?), ("https://id.example.com", "", "s", nil),
                      ("https://id.example.com", "tally", "", nil), ("https://id.example.com?x=1", "tally", "s", nil),
                      ("https://id.example.com", "tally", "s", String(repeating: "n", count: 41))])
    func settings(_ issuer: String, _ client: String, _ secret: String, _ name: String?) throws {
        #expect(throws: OpenIDSettingsError.self) { try OpenIDSettings(issuer: issuer, clientID: client, clientSecret: secret, name: name) }
        let fine = try OpenIDSettings(issuer: "https://id.example.com/realms/home/", clientID: "tally", clientSecret: "s", name: nil)
        #expect(fine.issuer == "https://id.example.com/realms/home/" && fine.name == "id.example.com")
        #expect(fine.discovery.absoluteString == "https://id.example.com/realms/home/.well-known/openid-configuration")
        #expect(try OpenIDSettings(issuer: "http://localhost:8081", clientID: "t", clientSecret: "s", name: " Home ").name == "Home")
    }
}
