import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

@Suite("Accounts, tokens and sessions")
struct AuthTests {
    @Test("A1: the first account is the admin, later ones are not")
    func firstAccountIsAdmin() async throws {
        let f = try await ServerFixture()
        #expect(try await f.store.account(named: "ada")?.isAdmin == true)
        #expect(try await f.store.account(named: "bob")?.isAdmin == false)
        try await f.test { client in
            let ada = try await client.send(.get, "/api/v1/me", token: f.adaToken).json()
            let bob = try await client.send(.get, "/api/v1/me", token: f.bobToken).json()
            #expect(ada["isAdmin"] as? Bool == true)
            #expect(bob["isAdmin"] as? Bool == false)
        }
    }

    @Test("A1: passwords are stored as bcrypt hashes, never as text")
    func passwordHash() async throws {
        let f = try await ServerFixture()
        let account = try #require(try await f.store.account(named: "ada"))
        #expect(account.passwordHash.hasPrefix("$2b$") && !account.passwordHash.contains("correct horse"))
    }

    @Test("No credential, a wrong token and a revoked token are all 401")
    func unauthorized() async throws {
        let f = try await ServerFixture()
        let (info, secret) = try await f.accounts.createAPIToken(for: f.ada, name: "old laptop")
        try await f.accounts.revokeAPIToken(id: info.id, of: f.ada)
        try await f.test { client in
            try await client.send(.get, "/api/v1/today", token: nil).problem(.unauthorized)
            try await client.send(.get, "/api/v1/today", token: "tally_not-a-token").problem(.unauthorized)
            try await client.send(.get, "/api/v1/today", token: secret).problem(.unauthorized)
            let basic = try await client.send(.get, "/api/v1/today", token: nil, headers: [.authorization: "Basic YWRhOmFkYQ=="])
            try basic.problem(.unauthorized)
        }
    }

    @Test("A1: tokens are stored hashed, listed without their secret, and revocable")
    func tokens() async throws {
        let f = try await ServerFixture()
        try await f.test { client in
            let created = try await client.send(.post, "/api/v1/tokens", token: f.adaToken, json: #"{"name": "phone"}"#)
            #expect(created.status == .created)
            let secret = try #require(try created.json()["secret"] as? String)
            #expect(try await client.send(.get, "/api/v1/today", token: secret).status == .ok)
            let list = try await client.send(.get, "/api/v1/tokens", token: f.adaToken)
            #expect(!list.text.contains(secret))
            let id = try #require((try created.json()["token"] as? [String: Any])?["id"] as? String)
            #expect(try await client.send(.delete, "/api/v1/tokens/\(id)", token: f.adaToken).status == .noContent)
            try await client.send(.get, "/api/v1/today", token: secret).problem(.unauthorized)
        }
    }

    @Test("A token seen before is refused at once when it is revoked elsewhere (another instance), expires or its account is disabled; the refusal comes before any other answer and nothing is written")
    func knownTokenRefusedAtOnce() async throws {
        let f = try await ServerFixture()
        let start = f.clock.now
        let (revokedInfo, revoked) = try await f.accounts.createAPIToken(for: f.ada, name: "old laptop")
        f.clock.set(start.addingTimeInterval(-86_400 + 120))
        let (_, brief) = try await f.accounts.createAPIToken(for: f.ada, name: "script", lifetime: 86_400) // ends at start + 120 s
        f.clock.set(start)
        let (_, bobs) = try await f.accounts.createAPIToken(for: f.bob, name: "phone")
        try await f.test { client in
            for secret in [revoked, brief, bobs, f.adaToken] {
                #expect(try await client.send(.get, "/api/v1/today", token: secret).status == .ok, "known from now on")
            }
            // Revoked by another instance on the same database: this server's memory of it must not count.
            try await f.accounts.revokeAPIToken(id: revokedInfo.id, of: f.ada)
            try await client.send(.get, "/api/v1/days/not-a-date", token: revoked).problem(.unauthorized)
            try await client.send(.get, "/api/v1/today", token: revoked).problem(.unauthorized)
            try await client.send(.get, "/api/v1/export/csv", token: revoked).problem(.unauthorized)
            try await client.send(.post, "/api/v1/intakes", token: revoked, json: #"{"volumeMl": 250}"#).problem(.unauthorized)
            let upload = "time,amount_ml\n" + String(repeating: "2025-06-14T10:00:00Z,250\n", count: 4_000)
            try await client.send(.post, "/api/v1/import/csv", token: revoked, json: upload,
                                  headers: [.contentType: "text/csv"]).problem(.unauthorized)

            f.clock.set(start.addingTimeInterval(180))
            try await client.send(.get, "/api/v1/today", token: brief).problem(.unauthorized)
            #expect(try await client.send(.get, "/api/v1/today", token: f.adaToken).status == .ok)

            try await f.accounts.setDisabled("bob", true)
            try await client.send(.post, "/api/v1/intakes", token: bobs, json: #"{"volumeMl": 250}"#).problem(.unauthorized)
            try await client.send(.get, "/api/v1/me", token: bobs).problem(.unauthorized)
            try await f.accounts.setDisabled("bob", false)
            #expect(try await client.send(.get, "/api/v1/me", token: bobs).status == .ok, "enabled again, the token works again")
        }
        let today = LocalDate(containing: start, in: TimeZone(identifier: "Europe/Berlin")!)
        #expect(try await f.store.entries(from: today, through: today, of: f.ada.id).isEmpty, "no refused drink was written")
        #expect(try await f.store.entries(from: today, through: today, of: f.bob.id).isEmpty)
    }

    @Test("A session cookie works for reads; changes need the session's CSRF token too")
    func sessionAndCSRF() async throws {
        let f = try await ServerFixture()
        let session = try await f.accounts.signIn(name: "ada", password: "correct horse").session
        let csrf = try await f.accounts.csrfToken(forSession: session)
        try await f.test { client in
            let cookie: HTTPFields = [.cookie: "tally_session=\(session)"]
            #expect(try await client.send(.get, "/api/v1/today", token: nil, headers: cookie).status == .ok)
            try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#, headers: cookie).problem(.forbidden)
            var wrong = cookie
            wrong[HTTPField.Name("X-CSRF-Token")!] = csrf + "x"
            try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#, headers: wrong).problem(.forbidden)
            var right = cookie
            right[HTTPField.Name("X-CSRF-Token")!] = csrf
            #expect(try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#, headers: right).status == .created)
            try await f.accounts.signOut(session: session)
            try await client.send(.get, "/api/v1/today", token: nil, headers: cookie).problem(.unauthorized)
        }
    }

    @Test("A1: repeated sign-in attempts slow down, and a success resets the count")
    func slowDown() async throws {
        let f = try await ServerFixture()
        for _ in 0..<SignInThrottle.freeAttemptsPerAccountAndAddress {
            await #expect(throws: TallyError(.unauthorized, "The user name or the password is wrong.")) {
                try await f.accounts.signIn(name: "ada", password: "wrong password")
            }
        }
        // Even the right password must wait now.
        let error = try await #require(throws: TallyError.self) { try await f.accounts.signIn(name: "ada", password: "correct horse") }
        #expect(error.kind == .tooManyRequests && error.message.contains("try again in 1 second") && error.retryAfter == 1)
        f.clock.advance(by: 2)
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse")
        // The count starts again after a success.
        await #expect(throws: TallyError(.unauthorized, "The user name or the password is wrong.")) {
            try await f.accounts.signIn(name: "ada", password: "wrong password")
        }
        // Unknown names get the same answer as a wrong password.
        await #expect(throws: TallyError(.unauthorized, "The user name or the password is wrong.")) {
            try await f.accounts.signIn(name: "nobody", password: "whatever1")
        }
    }

    @Test("A1: one client address is slowed after its free attempts, whichever names it tries")
    func slowDownPerAddress() async throws {
        let f = try await ServerFixture()
        for index in 0..<SignInThrottle.freeAttemptsPerAddress {
            _ = try? await f.accounts.signIn(name: "name\(index)", password: "wrong password", client: "203.0.113.9")
        }
        let error = try await #require(throws: TallyError.self) {
            try await f.accounts.signIn(name: "ada", password: "correct horse", client: "203.0.113.9")
        }
        #expect(error.kind == .tooManyRequests)
        _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "198.51.100.1")
    }

    @Test("A1: a household behind one address signs in as often as it likes: only failures count against the address")
    func successesDoNotCountAgainstTheAddress() async throws {
        let f = try await ServerFixture()
        for _ in 0..<(3 * SignInThrottle.freeAttemptsPerAddress) {
            _ = try await f.accounts.signIn(name: "ada", password: "correct horse", client: "203.0.113.9")
            _ = try await f.accounts.signIn(name: "bob", password: "battery staple", client: "203.0.113.9")
        }
    }

    @Test("Sessions expire")
    func sessionExpiry() async throws {
        let f = try await ServerFixture()
        let session = try await f.accounts.signIn(name: "ada", password: "correct horse").session
        #expect(try await f.accounts.user(forSession: session) == f.ada)
        f.clock.advance(by: 31 * 24 * 3600)
        #expect(try await f.accounts.user(forSession: session) == nil)
    }

    @Test("Sign-up refuses a bad name, a short password and a taken name")
    func signUpRules() async throws {
        let f = try await ServerFixture()
        await #expect(throws: TallyError.self) { try await f.accounts.signUp(name: "a b", password: "long enough") }
        await #expect(throws: TallyError.self) { try await f.accounts.signUp(name: "carol", password: "short") }
        await #expect(throws: TallyError.conflict("There is already a user named ada.")) {
            try await f.accounts.signUp(name: "ada", password: "long enough")
        }
        #expect(try await f.store.accounts().map(\.user.name) == ["ada", "bob"])
    }
}
