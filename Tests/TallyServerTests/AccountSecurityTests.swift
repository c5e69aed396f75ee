import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import TallyStore
import Testing

/// Accounts that hold up against abuse (A1): who may sign up, sign-in that cannot be raced or
/// probed, sessions and tokens that end when they should.
@Suite("Account security")
struct AccountSecurityTests {
    // MARK: - Sign-up

    @Test("A1: after the first account sign-up is by invite; closed refuses; an invite works its number of times until it expires")
    func signUpModes() async throws {
        let store = try SQLiteStore.inMemory()
        let clock = FixedClock(ISO8601DateFormatter().date(from: "2025-06-15T10:00:00Z")!)
        let accounts = AccountService(store: store, clock: clock, passwordCost: 4)
        #expect(try await accounts.signUpMode() == .open, "a fresh server takes its first account")
        #expect(try await accounts.signUp(name: "ada", password: "correct horse").isAdmin)
        #expect(try await accounts.signUpMode() == .invite)

        let refused = try await #require(throws: TallyError.self) { try await accounts.signUp(name: "bob", password: "long enough") }
        #expect(refused.kind == .invalidInput && refused.message.contains("by invite only"))

        let (_, code) = try await accounts.createSignUpInvite(days: 1, uses: 1)
        #expect(try await !accounts.signUp(name: "bob", password: "long enough", invite: code).isAdmin)
        let usedUp = try await #require(throws: TallyError.self) { try await accounts.signUp(name: "carol", password: "long enough", invite: code) }
        #expect(usedUp.message.contains("not valid any more"))

        let (_, later) = try await accounts.createSignUpInvite(days: 1, uses: 5)
        clock.advance(by: 86_401)
        let expired = try await #require(throws: TallyError.self) { try await accounts.signUp(name: "carol", password: "long enough", invite: later) }
        #expect(expired.message.contains("not valid any more"))

        try await store.setSignUpMode(.closed)
        let closed = try await #require(throws: TallyError.self) { try await accounts.signUp(name: "dave", password: "long enough") }
        #expect(closed.kind == .conflict && closed.message.contains("closed"))
        #expect(try await accounts.createAccount(name: "dave", password: "long enough").user.name == "dave", "the admin still can")

        try await store.setSignUpMode(.open)
        #expect(try await accounts.signUp(name: "erin", password: "long enough").user.name == "erin")
        #expect(try await store.accounts().map(\.user.name) == ["ada", "bob", "dave", "erin"])
    }

    @Test("A1: the sign-up page follows the mode, and an invite link fills in its code")
    func signUpPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = WebTests.Browser(client)
            try await f.store.setSignUpMode(.closed)
            #expect(try await browser.get("/signup").text.contains("does not take new accounts"))
            try await f.store.setSignUpMode(.invite)
            let (_, code) = try await f.accounts.createSignUpInvite(days: 7, uses: 1)
            let page = try await browser.get("/signup?invite=\(code)")
            #expect(page.text.contains(#"name="invite""#) && page.text.contains(#"value="\#(code)""#))
            let refused = try await browser.post("/signup", ["name": "carol", "password": "long enough", "invite": "wrong"])
            #expect(refused.status == .badRequest && refused.text.contains("not valid any more"))
            let joined = try await browser.post("/signup", ["name": "carol", "password": "long enough", "invite": code])
            #expect(joined.status == .seeOther && joined.headers[.location] == "/onboarding", "\(joined.status)")
        }
    }

    // MARK: - The admin

    @Test("A1: a disabled account's token and session stop working at once, and it cannot sign in; enabling restores the token")
    func disabledAccount() async throws {
        let f = try await ServerFixture()
        let session = try await f.accounts.signIn(name: "bob", password: "battery staple").session
        try await f.test { client in
            #expect(try await client.send(.get, "/api/v1/today", token: f.bobToken).status == .ok)
            _ = try await f.accounts.setDisabled("bob", true)
            try await client.send(.get, "/api/v1/today", token: f.bobToken).problem(.unauthorized)
            #expect(try await f.accounts.user(forSession: session) == nil)
            let refused = try await #require(throws: TallyError.self) { try await f.accounts.signIn(name: "bob", password: "battery staple") }
            #expect(refused.message.contains("disabled"))
            _ = try await f.accounts.setDisabled("bob", false)
            #expect(try await client.send(.get, "/api/v1/today", token: f.bobToken).status == .ok)
        }
        await #expect(throws: TallyError.self) { _ = try await f.accounts.setDisabled("ada", true) }
    }

    @Test("A1: the admin's page is a 404 to everyone else; the admin sets the mode, makes invites and disables accounts")
    func adminPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let bob = try await WebTests.Browser.signedIn(client, "bob", "battery staple")
            #expect(try await bob.get("/admin").status == .notFound)
            #expect(try await bob.post("/admin/signup", ["mode": "open"]).status == .notFound)
            #expect(try await bob.post("/admin/accounts/ada/disable", [:]).status == .notFound)
            let stranger = WebTests.Browser(client)
            #expect(try await stranger.get("/admin").status == .notFound)

            let ada = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            #expect(try await ada.get("/admin").text.contains("Server administration"))
            #expect(try await ada.post("/admin/signup", ["mode": "closed"]).text.contains("Sign-up is now closed"))
            #expect(try await f.store.signUpMode() == .closed)
            let invite = try await ada.post("/admin/invites", ["days": "3", "uses": "2"])
            #expect(invite.text.contains("/signup?invite="))
            #expect(try await ada.post("/admin/accounts/bob/disable", [:]).text.contains("bob is disabled"))
            #expect(try await bob.get("/").headers[.location] == "/signin", "bob's session ended")
        }
    }

    // MARK: - Sign-in

    @Test("A1: 20 parallel wrong passwords for one account: only the free attempts reach the hash")
    func throttleCannotBeRaced() async throws {
        let f = try await ServerFixture()
        let accounts = AccountService(store: f.store, clock: f.clock, passwordCost: 4)
        let outcomes = await withTaskGroup(of: TallyError.Kind?.self) { group in
            for _ in 0..<20 {
                group.addTask { do { _ = try await accounts.signIn(name: "ada", password: "wrong password"); return nil }
                                catch let error as TallyError { return error.kind } catch { return nil } }
            }
            return await group.reduce(into: [TallyError.Kind?]()) { $0.append($1) }
        }
        #expect(accounts.hasher.checked <= SignInThrottle.freeAttemptsPerAccountAndAddress, "\(accounts.hasher.checked) guesses reached the hash")
        #expect(outcomes.filter { $0 == .unauthorized }.count == accounts.hasher.checked)
        // The rest were throttled, or found every hashing slot taken (busy): none got in.
        #expect(outcomes.filter { $0 == .tooManyRequests }.count >= 20 - SignInThrottle.freeAttemptsPerAccountAndAddress)
        #expect(outcomes.allSatisfy { [.unauthorized, .tooManyRequests, .busy].contains($0) }, "\(outcomes)")
    }

    @Test("A1: a known and an unknown name get the same refusal, the same throttle sentence, and one hash each")
    func unknownNamesReadTheSame() async throws {
        let f = try await ServerFixture()
        let accounts = AccountService(store: f.store, clock: f.clock, passwordCost: 4)
        var messages: [String: Set<String>] = [:]
        for name in ["ada", "nobody"] {
            for _ in 0..<(SignInThrottle.freeAttemptsPerAccountAndAddress + 1) {
                let before = accounts.hasher.checked
                let error = try await #require(throws: TallyError.self) { try await accounts.signIn(name: name, password: "wrong password") }
                messages[name, default: []].insert(error.message)
                if error.kind == .unauthorized { #expect(accounts.hasher.checked == before + 1, "\(name): no hash") }
            }
        }
        #expect(messages["ada"] == messages["nobody"], "\(messages)")
        #expect(messages["ada"]?.count == 2, "a wrong password, then the throttle")
        #expect(!(messages["ada"] ?? []).contains { $0.contains("ada") })
    }

    @Test("A1: an unknown name is checked against a decoy of the real cost, so it costs what a known one does (timed in bench/signin.sh)")
    func decoyHasTheRealCost() async throws {
        for cost in [4, 10] {
            let hasher = PasswordHasher(cost: cost)
            let decoy = try await hasher.decoyHash()
            #expect(decoy.hasPrefix(String(format: "$2b$%02d$", cost)), "\(decoy.prefix(7)) for cost \(cost)")
            #expect(try await hasher.decoyHash() == decoy, "made once")
            #expect(try await !hasher.verify("anything at all", against: nil))
        }
    }

    @Test("A1: beyond the hashes the server runs at once, it answers busy with Retry-After")
    func boundedHashing() async throws {
        let hasher = PasswordHasher(cost: 12, limit: 1)
        let first = Task { try await hasher.hash("a long password") }
        while hasher.running == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let busy = try await #require(throws: TallyError.self) { try await hasher.hash("another password") }
        #expect(busy.kind == .busy && busy.retryAfter == 1)
        _ = try await first.value
        let response = ProblemMiddleware<TallyRequestContext>.response(status: .serviceUnavailable, detail: busy.message, retryAfter: busy.retryAfter)
        #expect(response.headers[.retryAfter] == "1")
        #expect(ProblemMiddleware<TallyRequestContext>.describe(busy).0 == .serviceUnavailable)
    }

    // MARK: - Sessions and tokens

    @Test("A1: signing in gives a new session id and ends the one the browser had")
    func sessionRotates() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let first = try #require(browser.cookies["tally_session"])
            _ = try await browser.post("/signin", ["name": "ada", "password": "correct horse"])
            let second = try #require(browser.cookies["tally_session"])
            #expect(first != second)
            #expect(try await f.accounts.user(forSession: first) == nil, "the old session still works")
            #expect(try await f.accounts.user(forSession: second) == f.ada)
        }
    }

    @Test("A1: a new password signs out every other session and says so; a wrong current password changes nothing")
    func passwordChangeEndsOtherSessions() async throws {
        let f = try await ServerFixture()
        let phone = try await f.accounts.signIn(name: "ada", password: "correct horse").session
        try await f.test { client in
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let wrong = try await browser.post("/account/password", ["current": "not it", "new": "a new password"])
            #expect(wrong.status == .badRequest && wrong.text.contains("current password is wrong"))
            #expect(try await f.accounts.user(forSession: phone) == f.ada)
            let changed = try await browser.post("/account/password", ["current": "correct horse", "new": "a new password"])
            #expect(changed.text.contains("1 other session was signed out"), "\(changed.text.prefix(400))")
            #expect(try await f.accounts.user(forSession: phone) == nil)
            #expect(try await browser.get("/account").status == .ok, "this browser stays signed in")
            _ = try await f.accounts.signIn(name: "ada", password: "a new password")
        }
    }

    @Test("A1: sign out everywhere else; the account page lists sessions and tokens with their use")
    func sessionsAndTokensListed() async throws {
        let f = try await ServerFixture()
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse", device: "Safari on iPhone")
        try await f.test { client in
            #expect(try await client.send(.get, "/api/v1/today", token: f.adaToken).status == .ok)
            let browser = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let page = try await browser.get("/account")
            #expect(page.text.contains("Safari on iPhone") && page.text.contains("(this browser)"))
            #expect(page.text.contains("<strong>test</strong>") && !page.text.contains("last used never"), "the token's use is shown")
            let sessions = try await client.send(.get, "/api/v1/sessions", token: f.adaToken)
            #expect(try #require(try JSONSerialization.jsonObject(with: sessions.body) as? [Any]).count == 2)
            let ended = try await browser.post("/account/sessions", [:])
            #expect(ended.text.contains("Signed out of 1 other session"))
            #expect(try await f.accounts.sessions(of: f.ada).count == 1)
        }
    }

    @Test("A1: a token with an expiry stops working after it, and is listed with it")
    func tokenExpiry() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let created = try await client.send(.post, "/api/v1/tokens", token: f.adaToken, json: #"{"name": "ci", "expiresInDays": 2}"#)
            #expect(created.status == .created)
            let secret = try #require(try created.json()["secret"] as? String)
            #expect(try await client.send(.get, "/api/v1/today", token: secret).status == .ok)
            let listed = try await client.send(.get, "/api/v1/tokens", token: f.adaToken)
            #expect(listed.text.contains("expiresAt") && listed.text.contains("lastUsedAt"))
            f.clock.advance(by: 2 * 86_400 + 1)
            try await client.send(.get, "/api/v1/today", token: secret).problem(.unauthorized)
            try await client.send(.post, "/api/v1/tokens", token: f.adaToken, json: #"{"name": "ci", "expiresInDays": 0}"#).problem(.badRequest)
        }
    }

    @Test("A1: the CSRF token is bound to the session: a planted cookie and a header that repeats it do not pass")
    func csrfBoundToSession() async throws {
        let f = try await ServerFixture()
        let session = try await f.accounts.signIn(name: "ada", password: "correct horse").session
        let token = try await f.accounts.csrfToken(forSession: session)
        let other = try await f.accounts.signIn(name: "ada", password: "correct horse").session
        #expect(try await f.accounts.csrfToken(forSession: other) != token)
        try await f.test { client in
            var planted: HTTPFields = [.cookie: "tally_session=\(session); tally_csrf=planted"]
            planted[HTTPField.Name("X-CSRF-Token")!] = "planted"
            try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#, headers: planted).problem(.forbidden)
            var right: HTTPFields = [.cookie: "tally_session=\(session)"]
            right[HTTPField.Name("X-CSRF-Token")!] = token
            #expect(try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#, headers: right).status == .created)
        }
    }
}
