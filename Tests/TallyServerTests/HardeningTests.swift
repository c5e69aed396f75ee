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

/// What an outside review broke, each shown to hold now: sign-up that cannot keep the password
/// hashes busy, a throttle that cannot be turned against an account's owner, tokens that open
/// no more than they should, a bound on open streams, and metrics for the scraper only.
@Suite("Hardening")
struct HardeningTests {
    // MARK: - Sign-up

    @Test("A1: a closed sign-up, and one without a valid invite, are refused before any password is hashed")
    func refusedSignUpsCostNoHash() async throws {
        let f = try await ServerFixture()
        let hashed = f.accounts.hasher.hashed
        try await f.store.setSignUpMode(.closed)
        for name in ["mallory", "mallory2"] {
            let closed = try await #require(throws: TallyError.self) { try await f.accounts.signUp(name: name, password: "long enough") }
            #expect(closed.message.contains("closed"))
        }
        try await f.store.setSignUpMode(.invite)
        for invite in [nil, "made up"] {
            await #expect(throws: TallyError.self) { try await f.accounts.signUp(name: "mallory", password: "long enough", invite: invite) }
        }
        let (_, code) = try await f.accounts.createSignUpInvite(days: 1, uses: 1)
        f.clock.advance(by: 2 * 86_400)
        let expired = try await #require(throws: TallyError.self) {
            try await f.accounts.signUp(name: "mallory", password: "long enough", invite: code)
        }
        #expect(expired.message.contains("not valid any more"))
        #expect(f.accounts.hasher.hashed == hashed, "\(f.accounts.hasher.hashed - hashed) refused sign-ups were hashed")

        // An invite that works is still taken.
        let (_, good) = try await f.accounts.createSignUpInvite(days: 1, uses: 1)
        #expect(try await f.accounts.signUp(name: "carol", password: "long enough", invite: good).user.name == "carol")
        #expect(f.accounts.hasher.hashed == hashed + 1)
    }

    @Test("A1: one address has a few refused sign-ups, then waits, and so does its next good one; another address does not; successes do not count")
    func signUpThrottle() async throws {
        let f = try await ServerFixture()
        for index in 0..<(3 * SignInThrottle.freeSignUpsPerAddress) {
            _ = try await f.accounts.signUp(name: "person\(index)", password: "long enough", client: "203.0.113.7")
        }
        for _ in 0..<SignInThrottle.freeSignUpsPerAddress {
            await #expect(throws: TallyError.conflict("There is already a user named ada.")) {
                try await f.accounts.signUp(name: "ada", password: "long enough", client: "203.0.113.7")
            }
        }
        let hashed = f.accounts.hasher.hashed
        let refused = try await #require(throws: TallyError.self) {
            try await f.accounts.signUp(name: "one-more", password: "long enough", client: "203.0.113.7")
        }
        #expect(refused.kind == .tooManyRequests && refused.retryAfter == 1 && refused.message.contains("sign-ups from your address"))
        #expect(f.accounts.hasher.hashed == hashed, "a taken name and the throttle are refused before the hash")
        _ = try await f.accounts.signUp(name: "neighbour", password: "long enough", client: "198.51.100.3")
    }

    @Test("A1: the sign-up form is throttled by the client's address")
    func signUpFormThrottle() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0...SignInThrottle.freeSignUpsPerAddress {
                let browser = WebTests.Browser(client)
                _ = try await browser.get("/signup")
                statuses.append(try await browser.post("/signup", ["name": "ada", "password": "long enough"]).status)
            }
            #expect(statuses.dropLast().allSatisfy { $0 == .conflict } && statuses.last == .tooManyRequests, "\(statuses)")
        }
    }

    // MARK: - Sign-in

    @Test("A1: ten wrong passwords from one address lock that address out of the account, not its owner elsewhere")
    func guessingDoesNotLockTheOwnerOut() async throws {
        let f = try await ServerFixture()
        for _ in 0..<10 {
            _ = try? await f.accounts.signIn(name: "ada", password: "wrong password", client: "203.0.113.66")
        }
        let guesser = try await #require(throws: TallyError.self) {
            try await f.accounts.signIn(name: "ada", password: "correct horse", client: "203.0.113.66")
        }
        #expect(guesser.kind == .tooManyRequests)
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1")
        // One guess every fifteen minutes from the guesser changes nothing for her.
        for _ in 0..<4 {
            f.clock.advance(by: SignInThrottle.longestWait)
            _ = try? await f.accounts.signIn(name: "ada", password: "wrong password", client: "203.0.113.66")
            _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1")
        }
    }

    @Test("A1: a crowd of addresses meets the ceiling per account; an address the account signed in from before still gets in")
    func crowdMeetsTheCeiling() async throws {
        let f = try await ServerFixture()
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1")
        for index in 0..<SignInThrottle.freeAttemptsPerAccount {
            _ = try? await f.accounts.signIn(name: "ada", password: "wrong password", client: "10.1.\(index / 250).\(index % 250)")
        }
        let hashed = f.accounts.hasher.checked
        let stranger = try await #require(throws: TallyError.self) {
            try await f.accounts.signIn(name: "ada", password: "wrong password", client: "10.9.9.9")
        }
        #expect(stranger.kind == .tooManyRequests && f.accounts.hasher.checked == hashed, "the ceiling is met before the hash")
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1")
        // Trust lasts thirty days.
        f.clock.advance(by: SignInThrottle.trust + 1)
        for index in 0..<SignInThrottle.freeAttemptsPerAccount {
            _ = try? await f.accounts.signIn(name: "ada", password: "wrong password", client: "10.2.\(index / 250).\(index % 250)")
        }
        await #expect(throws: TallyError.self) { try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1") }
    }

    @Test("A1: the admin clears a lock, from the admin page; nobody else can")
    func adminClearsALock() async throws {
        let f = try await ServerFixture()
        for _ in 0..<10 { _ = try? await f.accounts.signIn(name: "bob", password: "wrong password", client: "203.0.113.66") }
        await #expect(throws: TallyError.self) { try await f.accounts.signIn(name: "bob", password: "battery staple", client: "203.0.113.66") }
        try await f.test { client in
            let bob = try await WebTests.Browser.signedIn(client, "bob", "battery staple")
            #expect(try await bob.post("/admin/accounts/bob/unlock", [:]).status == .notFound)
            let ada = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            #expect(try await ada.get("/admin").text.contains("/admin/accounts/bob/unlock"))
            #expect(try await ada.post("/admin/accounts/bob/unlock", [:]).text.contains("bob can sign in again at once"))
        }
        _ = try await f.accounts.signIn(name: "bob", password: "battery staple", client: "203.0.113.66")
    }

    // MARK: - Tokens

    @Test("A1: a server without accounts sends its first visitor to sign up; one with accounts, to sign in")
    func firstVisitSignsUp() async throws {
        let store = try SQLiteStore.inMemory()
        let clock = FixedClock(Date(timeIntervalSince1970: 1_750_000_000))
        try await buildApplication(configuration: ServerConfiguration(passwordCost: 4), store: store, clock: clock).test(.router) { client in
            let first = try await client.send(.get, "/", token: nil)
            #expect(first.status == .seeOther || first.status == .found, "\(first.status)")
            #expect(first.headers[.location] == "/signup")
            _ = try await AccountService(store: store, clock: clock, passwordCost: 4).signUp(name: "ada", password: "correct horse", timeZone: "UTC")
            #expect(try await client.send(.get, "/", token: nil).headers[.location] == "/signin")
        }
    }

    @Test("A1: an API token opens the API, not the web app's pages nor the admin's")
    func tokensOpenNoPages() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            #expect(try await client.send(.get, "/api/v1/today", token: f.adaToken).status == .ok)
            let today = try await client.send(.get, "/", token: f.adaToken)
            #expect(today.status == .seeOther || today.status == .found, "\(today.status)")
            #expect(today.headers[.location] == "/signin")
            #expect(try await client.send(.get, "/admin", token: f.adaToken).status == .notFound, "ada is the admin, but not with a token")
            #expect(try await client.send(.get, "/account", token: f.adaToken).headers[.location] == "/signin")
        }
    }

    @Test("A1: a read token reads only; a drinks token logs drinks and reads today only; both are refused in words")
    func scopes() async throws {
        let f = try await ServerFixture()
        let reader = try await f.accounts.createAPIToken(for: f.ada, name: "reader", scope: .read).secret
        let shortcut = try await f.accounts.createAPIToken(for: f.ada, name: "phone", scope: .drinks).secret
        try await f.test { client in
            #expect(try await client.send(.get, "/api/v1/today", token: reader).status == .ok)
            #expect(try await client.send(.get, "/api/v1/ledgers", token: reader).status == .ok)
            let write = try await client.send(.post, "/api/v1/intakes", token: reader, json: #"{"volumeMl": 250}"#).problem(.forbidden)
            #expect(write.contains("only read"))
            try await client.send(.post, "/api/v1/tokens", token: reader, json: #"{"name": "more"}"#).problem(.forbidden)

            #expect(try await client.send(.post, "/api/v1/intakes", token: shortcut, json: #"{"volumeMl": 250}"#).status == .created)
            #expect(try await client.send(.get, "/api/v1/today", token: shortcut).status == .ok)
            let ledgers = try await client.send(.get, "/api/v1/ledgers", token: shortcut).problem(.forbidden)
            #expect(ledgers.contains("only log drinks"))
            try await client.send(.get, "/api/v1/tokens", token: shortcut).problem(.forbidden)
            try await client.send(.post, "/api/v1/tokens", token: shortcut, json: #"{"name": "more", "scope": "drinks"}"#).problem(.forbidden)

            let answer = try await client.send(.get, "/api/v1/tokens", token: f.adaToken)
            let listed = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [[String: Any]])
            #expect(Set(listed.compactMap { $0["scope"] as? String }) == ["write", "read", "drinks"])
        }
    }

    @Test("A1: the account page makes a token of the scope chosen, lists it with its scope, and refuses a scope there is not")
    func scopeOnTheAccountPage() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ada = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            let form = try await ada.get("/account")
            #expect(form.text.contains(#"name="scope" value="drinks""#) && form.text.contains(#"name="scope" value="write" checked"#))
            let made = try await ada.post("/account/tokens", ["name": "phone", "scope": "drinks"])
            #expect(made.text.contains("phone</strong> (log drinks and read today only)"), "\(made.text.prefix(0))")
            let refused = try await ada.post("/account/tokens", ["name": "root", "scope": "admin"])
            #expect(refused.status == .badRequest && refused.text.contains("read, write or drinks"))
            let tokens = try await f.accounts.apiTokens(of: f.ada)
            #expect(tokens.first { $0.name == "phone" }?.scope == .drinks && !tokens.contains { $0.name == "root" })
        }
    }

    @Test("A1: a token that expires cannot make one that outlives it")
    func tokensDoNotOutliveTheirMaker() async throws {
        let f = try await ServerFixture()
        let day = try await f.accounts.createAPIToken(for: f.ada, name: "a day", lifetime: 86_400).secret
        try await f.test { client in
            let forever = try await client.send(.post, "/api/v1/tokens", token: day, json: #"{"name": "forever"}"#).problem(.badRequest)
            #expect(forever.contains("cannot outlive it"))
            try await client.send(.post, "/api/v1/tokens", token: day, json: #"{"name": "longer", "expiresInDays": 2}"#).problem(.badRequest)
            #expect(try await client.send(.post, "/api/v1/tokens", token: day, json: #"{"name": "as long", "expiresInDays": 1}"#).status == .created)
            // A token that never expires makes any.
            #expect(try await client.send(.post, "/api/v1/tokens", token: f.adaToken, json: #"{"name": "forever"}"#).status == .created)
        }
    }

    @Test("A1: the account page revokes all tokens at once; the admin's reset of a password ends its tokens too")
    func revokingAllTokens() async throws {
        let f = try await ServerFixture()
        let second = try await f.accounts.createAPIToken(for: f.ada, name: "second").secret
        let bobs = try await f.accounts.createAPIToken(for: f.bob, name: "bob's").secret
        try await f.test { client in
            let ada = try await WebTests.Browser.signedIn(client, "ada", "correct horse")
            #expect(try await ada.post("/account/tokens/revoke-all", [:]).text.contains("Revoked 2 tokens"))
            try await client.send(.get, "/api/v1/today", token: f.adaToken).problem(.unauthorized)
            try await client.send(.get, "/api/v1/today", token: second).problem(.unauthorized)
            #expect(try await client.send(.get, "/api/v1/today", token: bobs).status == .ok)
            #expect(try await ada.post("/admin/accounts/bob/password", ["password": "a new password"]).text.contains("API tokens stopped working"))
            try await client.send(.get, "/api/v1/today", token: bobs).problem(.unauthorized)
        }
    }

    // MARK: - Uploads

    @Test("A2: a CSV of drinks past 16 MB is refused (413) as it arrives, so what one import holds in memory is bounded")
    func csvSizeBound() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let body = ByteBuffer(repeating: UInt8(ascii: "a"), count: Int(DrinkCSVUpload.maxSize) + 1)
            let answer = try await client.execute(uri: "/api/v1/import/csv", method: .post,
                                                  headers: [.authorization: "Bearer \(f.adaToken)", .contentType: "text/csv"], body: body) {
                Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body))
            }
            #expect(try answer.problem(.contentTooLarge).contains("at most 16 MB"))
        }
    }

    @Test("A2: the uploads' disk budget refuses what would pass it (507), and gives back what a finished upload took")
    func uploadSpace() throws {
        let space = UploadSpace(budget: 10)
        var first: UploadSpace.Lease? = space.lease()
        try first?.take(6)
        let second = space.lease()
        try second.take(4)
        #expect(throws: StatusRefusal.self) { try second.take(1) }
        #expect(space.inUse == 10)
        first = nil
        #expect(space.inUse == 4)
        try second.take(6)
    }

    // MARK: - Look-alike names

    @Test("S1: a member renamed or added as \"Аlice\" (Cyrillic А) beside Alice is refused, on both ways in, and nothing changes")
    func lookAlikeMembers() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let ledger = try await client.makeLedger(f.adaToken, #"{"name": "Flat", "currency": "EUR", "members": ["Alice", "Bob"]}"#)
            let base = "/api/v1/ledgers/\(ledger.id)/members"
            let renamed = try await client.send(.patch, "\(base)/\(ledger.members[1].id)", token: f.adaToken, json: #"{"name": "\u0410lice"}"#)
            #expect(try renamed.problem(.conflict).contains("looks the same"))
            try await client.send(.post, base, token: f.adaToken, json: #"{"name": "Al\u0456ce"}"#).problem(.conflict)
            let after = try await client.send(.get, "/api/v1/ledgers/\(ledger.id)", token: f.adaToken).decode(LedgerReply.self)
            #expect(after.members.map(\.name) == ["Alice", "Bob"])
        }
    }

    // MARK: - Streams and metrics

    @Test("A1: one person holds at most their share of open streams; the rest are refused in words, and a closed one frees its place")
    func streamsPerPerson() async throws {
        let streams = OpenStreams(perPerson: 3)
        let ada = UUID(), bob = UUID()
        var held = try (0..<3).map { _ in try streams.take(for: ada) }
        let refused = try #require(throws: TallyError.self) { try streams.take(for: ada) }
        #expect(refused.kind == .tooManyRequests && refused.message.contains("3 pages"))
        _ = try streams.take(for: bob)
        held.removeLast()
        #expect(streams.count(of: ada) == 2)
        held.append(try streams.take(for: ada))
        held.removeAll()
        #expect(streams.count(of: ada) == 0)
    }

    @Test("A6: /metrics is not served without its token, refuses a wrong one and an API token, and serves the scraper's")
    func metricsForTheScraper() async throws {
        let plain = try await ServerFixture()
        try await plain.test { client in
            let answer = try await client.send(.get, "/metrics", token: nil)
            #expect(answer.status == .notFound)
        }
        var fixture = plain
        fixture.configuration.metricsToken = "scraper secret"
        let f = fixture
        try await f.test { client in
            #expect(try await client.send(.get, "/metrics", token: nil).status == .unauthorized)
            #expect(try await client.send(.get, "/metrics", token: f.adaToken).status == .unauthorized)
            let metrics = try await client.send(.get, "/metrics", token: "scraper secret")
            #expect(metrics.status == .ok && metrics.text.contains("# TYPE"))
        }
    }
}
