import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

extension Fixture {
    /// Creates an account `name` through the store, at the clock's time.
    @discardableResult
    func account(_ name: String, by creation: AccountCreation = .byAdmin) async throws -> Account {
        try await store.createAccount(User(name: name, createdAt: clock.now), passwordHash: "hash of \(name)",
                                      settings: HydrationSettings(timeZone: "Europe/Berlin"), kinds: DrinkFactorSet.builtInKinds(),
                                      by: creation, now: clock.now)
    }

    /// Signs `name` up with an invite's code hash, or with none.
    @discardableResult
    func signUp(_ name: String, invite: Data? = nil) async throws -> Account {
        try await account(name, by: .signUp(inviteHash: invite))
    }
}

/// A hash as the server stores it (only its bytes matter here).
private func hash(_ byte: UInt8) -> Data { Data(repeating: byte, count: 32) }

/// A1 in the store: accounts, who may sign up, the sign-in throttle, sessions and API tokens.
/// The fixture's own user ("ada", the CLI's kind) has no password: it is no account.
@Suite("Account repository contract (A1)")
struct AccountContractTests {
    static let closedNotice = TallyError.conflict("Sign-up is closed on this server: ask its admin for an account.")
    static let inviteOnly = TallyError.invalid(
        "This server takes new accounts by invite only: open the invite link you were given, or ask its admin for one.")
    static let inviteSpent = TallyError.invalid(
        "This invite is not valid any more (expired or used up): ask the server's admin for a new one.")

    @Test("The first account becomes admin whatever the mode; accounts are found by name whatever its capitals",
          arguments: StoreKind.allCases)
    func firstAccountIsAdmin(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        #expect(try await f.store.signUpMode() == .standard)
        try await f.store.setSignUpMode(.closed)
        #expect(try await f.store.signUpMode() == .closed)
        #expect(try await f.store.accounts().isEmpty, "a user without a password is no account")
        _ = try await UserDirectory(store: f.store, clock: FixedClock(Date())).user(named: "ada")
        #expect(try await f.store.accountCount() == 0, "a user without a password is no account")
        #expect(try await f.store.account(named: "ada") == nil)

        let bob = try await f.signUp("bob")
        #expect(bob.isAdmin && bob.passwordHash == "hash of bob" && bob.disabledAt == nil)
        #expect(try await f.store.account(named: "BOB") == bob)
        await #expect(throws: Self.closedNotice) { try await f.signUp("carol") }
        #expect(try await f.store.user(named: "carol") == nil, "a refused sign-up stores nothing")
        let carol = try await f.account("carol")
        let alice = try await f.account("Alice")
        #expect(!carol.isAdmin && !alice.isAdmin)
        #expect(try await f.store.accounts() == [alice, bob, carol])
        #expect(try await f.store.accountCount() == 3)
        await #expect(throws: TallyError.conflict("There is already a user named Carol.")) { try await f.account("Carol") }
        #expect(try await f.store.settings(of: carol.user.id) == HydrationSettings(timeZone: "Europe/Berlin"))
        #expect(try await f.store.drinkKinds(of: carol.user.id).count == DrinkFactorSet.builtInKinds().count)
    }

    @Test("A password for an existing user makes an account: admin only when it is the first", arguments: StoreKind.allCases)
    func setPassword(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.otherUser()
        try await f.store.setPassword(of: f.user.id, to: "first")
        #expect(try await f.store.account(named: "ada") == Account(user: f.user, passwordHash: "first", isAdmin: true))
        try await f.store.setPassword(of: f.user.id, to: "second")
        #expect(try await f.store.account(named: "ada") == Account(user: f.user, passwordHash: "second", isAdmin: true),
                "a new password keeps the admin")
        try await f.store.setPassword(of: bob.user, to: "bob's")
        #expect(try await f.store.account(named: "bob")?.isAdmin == false)
        await #expect(throws: TallyError.notFound("No such user.")) { try await f.store.setPassword(of: UUID(), to: "x") }
    }

    @Test("Sign-ups racing on a fresh server make exactly one admin", arguments: StoreKind.allCases)
    func racingFirstSignUps(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.store.setSignUpMode(.open)
        let accounts = try await withThrowingTaskGroup(of: Account.self) { group in
            for index in 0..<8 {
                group.addTask { try await f.signUp("racer\(index)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(accounts.count == 8)
        #expect(accounts.filter(\.isAdmin).count == 1)
        #expect(try await f.store.accounts().filter(\.isAdmin).map(\.user) == accounts.filter(\.isAdmin).map(\.user))
    }

    @Test("Sign-up follows the mode: open to all, by invite (each use spent once, until it expires), or closed",
          arguments: StoreKind.allCases)
    func signUpModes(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.account("admin")
        await #expect(throws: Self.inviteOnly) { try await f.signUp("bob") }
        let now = f.clock.now
        let invite = try await f.store.createSignUpInvite(codeHash: hash(1), createdAt: now, expiresAt: now.addingTimeInterval(3600), uses: 2)
        #expect(invite == SignUpInviteInfo(id: SessionInfo.id(of: hash(1)), createdAt: now, expiresAt: now.addingTimeInterval(3600), usesLeft: 2))
        #expect(try await f.store.signUpInvites(now: now) == [invite])

        await #expect(throws: Self.inviteSpent) { try await f.signUp("bob", invite: hash(9)) }
        try await f.signUp("bob", invite: hash(1))
        await #expect(throws: TallyError.conflict("There is already a user named bob.")) { try await f.signUp("bob", invite: hash(1)) }
        #expect(try await f.store.signUpInvites(now: now).map(\.usesLeft) == [1], "a sign-up that failed spends no use")
        try await f.signUp("carol", invite: hash(1))
        #expect(try await f.store.signUpInvites(now: now).isEmpty, "a spent invite is not listed")
        await #expect(throws: Self.inviteSpent) { try await f.signUp("dave", invite: hash(1)) }

        // An invite that expired lets no one in, and is not listed.
        let later = try await f.store.createSignUpInvite(codeHash: hash(2), createdAt: now.addingTimeInterval(60),
                                                         expiresAt: now.addingTimeInterval(7200), uses: 5)
        #expect(try await f.store.signUpInvites(now: now.addingTimeInterval(7200)).isEmpty)
        f.clock.advance(by: 7200)
        await #expect(throws: Self.inviteSpent) { try await f.signUp("dave", invite: hash(2)) }
        #expect(try await f.store.signUpInvites(now: now.addingTimeInterval(3600)) == [later])

        try await f.store.setSignUpMode(.open)
        try await f.signUp("dave")
        try await f.store.setSignUpMode(.closed)
        await #expect(throws: Self.closedNotice) { try await f.signUp("erin", invite: hash(2)) }
        #expect(try await f.account("erin").isAdmin == false, "the admin makes accounts whatever the mode")
        #expect(try await f.store.accounts().map(\.user.name) == ["admin", "bob", "carol", "dave", "erin"])
    }

    @Test("Invites are deleted by id; spent and expired ones go when a new one comes", arguments: StoreKind.allCases)
    func inviteLifetime(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.account("admin")
        let now = f.clock.now
        let first = try await f.store.createSignUpInvite(codeHash: hash(1), createdAt: now, expiresAt: now.addingTimeInterval(60), uses: 1)
        let second = try await f.store.createSignUpInvite(codeHash: hash(2), createdAt: now.addingTimeInterval(1),
                                                          expiresAt: now.addingTimeInterval(3600), uses: 3)
        #expect(try await f.store.signUpInvites(now: now.addingTimeInterval(1)) == [first, second])
        try await f.store.deleteSignUpInvite(id: second.id)
        #expect(try await f.store.signUpInvites(now: now.addingTimeInterval(1)) == [first])
        await #expect(throws: TallyError.notFound("There is no invite with the id \(second.id).")) {
            try await f.store.deleteSignUpInvite(id: second.id)
        }
        // The first expired: a new invite takes it away, so there is nothing left to delete.
        _ = try await f.store.createSignUpInvite(codeHash: hash(3), createdAt: now.addingTimeInterval(60),
                                                 expiresAt: now.addingTimeInterval(3600), uses: 1)
        await #expect(throws: TallyError.notFound("There is no invite with the id \(first.id).")) {
            try await f.store.deleteSignUpInvite(id: first.id)
        }
    }

    @Test("Parallel sign-ups cannot spend an invite's uses more than once", arguments: StoreKind.allCases)
    func racingInvite(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        try await f.account("admin")
        let now = f.clock.now
        _ = try await f.store.createSignUpInvite(codeHash: hash(1), createdAt: now, expiresAt: now.addingTimeInterval(3600), uses: 3)
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<10 {
                group.addTask {
                    do {
                        try await f.signUp("guest\(index)", invite: hash(1))
                        return true
                    } catch let error as TallyError where error == Self.inviteSpent {
                        return false
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 3)
        #expect(try await f.store.accounts().count == 4)
        #expect(try await f.store.signUpInvites(now: now).isEmpty)
    }

    @Test("The throttle lets the free attempts through, then makes each key wait longer; a refusal is not recorded",
          arguments: StoreKind.allCases)
    func throttle(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let account = ThrottleKey("account:ada", freeAttempts: 3), address = ThrottleKey("address:10.0.0.1", freeAttempts: 20)
        let start = instant("2025-06-15T10:00:00Z")
        func wait(_ seconds: Int) -> TallyError {
            TallyError(.tooManyRequests, "Too many sign-in attempts; try again in \(seconds) second\(seconds == 1 ? "" : "s").",
                       retryAfter: seconds)
        }
        for _ in 0..<3 { try await f.store.reserveSignInAttempt([account, address], now: start) }
        await #expect(throws: wait(1)) { try await f.store.reserveSignInAttempt([account, address], now: start) }
        try await f.store.reserveSignInAttempt([address], now: start)
        try await f.store.reserveSignInAttempt([account, address], now: start.addingTimeInterval(1))
        await #expect(throws: wait(2)) { try await f.store.reserveSignInAttempt([account], now: start.addingTimeInterval(1)) }
        await #expect(throws: wait(1)) { try await f.store.reserveSignInAttempt([account], now: start.addingTimeInterval(2)) }
        // Refused attempts counted for nothing: the fifth waits 2 seconds after the fourth, not more.
        try await f.store.reserveSignInAttempt([account], now: start.addingTimeInterval(3))
        await #expect(throws: wait(4)) { try await f.store.reserveSignInAttempt([account], now: start.addingTimeInterval(3)) }

        // Success forgets the account's attempts, and only the one it reserved under the address.
        let other = ThrottleKey("address:10.0.0.2", freeAttempts: 1)
        try await f.store.reserveSignInAttempt([other], now: start)
        try await f.store.reserveSignInAttempt([other], now: start.addingTimeInterval(10))
        try await f.store.signInSucceeded(forgetting: [account.key], releasing: [other.key], trusting: "trusted:ada|10.0.0.2",
                                          at: start.addingTimeInterval(10))
        for _ in 0..<3 { try await f.store.reserveSignInAttempt([account], now: start.addingTimeInterval(10)) }
        // The address's earlier failure still counts: the next attempt passes, the one after waits for both.
        try await f.store.reserveSignInAttempt([other], now: start.addingTimeInterval(10))
        await #expect(throws: wait(2)) { try await f.store.reserveSignInAttempt([other], now: start.addingTimeInterval(10)) }

        // A day later every attempt is forgotten.
        let nextDay = start.addingTimeInterval(SignInThrottle.memory + 11)
        for _ in 0..<3 { try await f.store.reserveSignInAttempt([account], now: nextDay) }
        await #expect(throws: wait(1)) { try await f.store.reserveSignInAttempt([account], now: nextDay) }
    }

    @Test("Parallel guesses cannot all pass the throttle before any is recorded", arguments: StoreKind.allCases)
    func racingThrottle(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let key = ThrottleKey("account:ada", freeAttempts: 5)
        let now = instant("2025-06-15T10:00:00Z")
        let passed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        try await f.store.reserveSignInAttempt([key], now: now)
                        return true
                    } catch let error as TallyError where error.kind == .tooManyRequests {
                        return false
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(passed.filter { $0 }.count == 5)
    }

    @Test("A sign-in's success trusts its address for 30 days, past the day attempts are kept; the admin's clearing forgets an account's attempts from every address",
          arguments: StoreKind.allCases)
    func trustAndClearing(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let start = instant("2025-06-15T10:00:00Z")
        let trust = SignInThrottle.trustKey("Carol", "10.0.0.1")
        #expect(try await !f.store.isTrusted(trust, now: start))
        try await f.store.signInSucceeded(forgetting: [], releasing: [], trusting: trust, at: start)
        #expect(try await f.store.isTrusted(trust, now: start))
        #expect(try await !f.store.isTrusted(SignInThrottle.trustKey("carol", "10.0.0.2"), now: start))
        // Another attempt a week later clears the day's attempts, and keeps the trust.
        let week = start.addingTimeInterval(7 * 86_400)
        try await f.store.reserveSignInAttempt([ThrottleKey("address:10.0.0.9", freeAttempts: 1)], now: week)
        #expect(try await f.store.isTrusted(trust, now: week))
        let later = start.addingTimeInterval(SignInThrottle.trust + 1)
        try await f.store.reserveSignInAttempt([ThrottleKey("address:10.0.0.9", freeAttempts: 9)], now: later)
        #expect(try await !f.store.isTrusted(trust, now: later))

        // carol's name is locked from two addresses and across them; "carolyn" and the address are not hers.
        let keys = [SignInThrottle.pairKey("carol", "10.0.0.1"), SignInThrottle.pairKey("carol", "10.0.0.2"), SignInThrottle.accountKey("carol"),
                    SignInThrottle.pairKey("carolyn", "10.0.0.1"), SignInThrottle.addressKey("10.0.0.1")]
        for key in keys { try await f.store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: 0)], now: later) }
        for key in keys {
            await #expect(throws: TallyError.self) { try await f.store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: 0)], now: later) }
        }
        try await f.store.clearSignInAttempts(account: "Carol")
        for key in keys.prefix(3) { try await f.store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: 1)], now: later) }
        for key in keys.suffix(2) {
            await #expect(throws: TallyError.self, "\(key) is not carol's") {
                try await f.store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: 1)], now: later)
            }
        }
    }

    @Test("Revoking all of a person's tokens ends each that still works, and no one else's", arguments: StoreKind.allCases)
    func revokeAllTokens(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada2"), bob = try await f.account("bob")
        let now = instant("2025-06-15T10:00:00Z")
        func token(_ name: String, of user: UUID, expires: Date?) async throws -> Data {
            let hash = Data(name.utf8)
            try await f.store.createAPIToken(APITokenInfo(id: UUID(), name: name, createdAt: now.addingTimeInterval(-86_400 * 2), expiresAt: expires),
                                             tokenHash: hash, of: user)
            return hash
        }
        let forever = try await token("forever", of: ada.user.id, expires: nil)
        let week = try await token("week", of: ada.user.id, expires: now.addingTimeInterval(7 * 86_400))
        _ = try await token("gone", of: ada.user.id, expires: now.addingTimeInterval(-86_400))
        let bobs = try await token("bob's", of: bob.user.id, expires: nil)
        #expect(try await f.store.revokeAPITokens(of: ada.user.id, at: now) == 2)
        #expect(try await f.store.tokenUser(tokenHash: forever, now: now) == nil)
        #expect(try await f.store.tokenUser(tokenHash: week, now: now) == nil)
        #expect(try await f.store.tokenUser(tokenHash: bobs, now: now)?.user.id == bob.user.id)
        #expect(try await f.store.revokeAPITokens(of: ada.user.id, at: now) == 0)
    }

    @Test("A session finds its user until it expires; a new one replaces the browser's previous one", arguments: StoreKind.allCases)
    func sessions(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada2")
        let bob = try await f.account("bob")
        let start = instant("2025-06-15T10:00:00Z"), end = instant("2025-07-15T10:00:00Z")
        try await f.store.createSession(tokenHash: hash(1), of: ada.user.id, device: "Firefox on Linux", createdAt: start,
                                        expiresAt: end, replacing: nil)
        let found = try #require(try await f.store.sessionUser(tokenHash: hash(1), now: start))
        #expect(found.user == ada.user && found.lastSeenAt == start)
        #expect(try await f.store.sessionUser(tokenHash: hash(1), now: end) == nil, "expired")
        #expect(try await f.store.sessionUser(tokenHash: hash(2), now: start) == nil)

        let touched = instant("2025-06-16T08:00:00Z")
        try await f.store.touchSession(tokenHash: hash(1), at: touched)
        #expect(try await f.store.sessionUser(tokenHash: hash(1), now: touched)?.lastSeenAt == touched)

        // Signing in again in that browser replaces its session.
        let again = instant("2025-06-17T08:00:00Z")
        try await f.store.createSession(tokenHash: hash(2), of: ada.user.id, device: "Firefox on Linux", createdAt: again,
                                        expiresAt: end, replacing: hash(1))
        #expect(try await f.store.sessionUser(tokenHash: hash(1), now: again) == nil)
        #expect(try await f.store.sessionUser(tokenHash: hash(2), now: again)?.user == ada.user)
        try await f.store.createSession(tokenHash: hash(3), of: ada.user.id, device: "Safari on iPhone", createdAt: start,
                                        expiresAt: end, replacing: nil)
        try await f.store.createSession(tokenHash: hash(4), of: bob.user.id, device: "Chrome", createdAt: start,
                                        expiresAt: end, replacing: nil)
        #expect(try await f.store.sessions(of: ada.user.id, now: again) == [
            SessionInfo(id: SessionInfo.id(of: hash(2)), device: "Firefox on Linux", createdAt: again, lastSeenAt: again, expiresAt: end),
            SessionInfo(id: SessionInfo.id(of: hash(3)), device: "Safari on iPhone", createdAt: start, lastSeenAt: start, expiresAt: end),
        ], "the last seen first")
        try await f.store.deleteSession(tokenHash: hash(3))
        #expect(try await f.store.sessions(of: ada.user.id, now: again).map(\.id) == [SessionInfo.id(of: hash(2))])
        #expect(try await f.store.sessions(of: bob.user.id, now: again).map(\.id) == [SessionInfo.id(of: hash(4))])
        #expect(try await f.store.sessions(of: ada.user.id, now: end).isEmpty)
    }

    @Test("Ending the other sessions keeps the one asking and counts the rest; expired ones go with a new one",
          arguments: StoreKind.allCases)
    func deleteOtherSessions(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada2")
        let bob = try await f.account("bob")
        let start = instant("2025-06-15T10:00:00Z"), end = instant("2025-07-15T10:00:00Z")
        try await f.store.createSession(tokenHash: hash(1), of: ada.user.id, device: "old", createdAt: start,
                                        expiresAt: instant("2025-06-15T11:00:00Z"), replacing: nil)
        // A session made after the first expired takes it away.
        for byte: UInt8 in 2...4 {
            try await f.store.createSession(tokenHash: hash(byte), of: ada.user.id, device: "browser \(byte)",
                                            createdAt: instant("2025-06-15T12:00:00Z"), expiresAt: end, replacing: nil)
        }
        try await f.store.createSession(tokenHash: hash(5), of: bob.user.id, device: "bob's", createdAt: start, expiresAt: end, replacing: nil)
        #expect(try await f.store.deleteSessions(of: ada.user.id, except: hash(2)) == 2)
        #expect(try await f.store.sessions(of: ada.user.id, now: start).map(\.id) == [SessionInfo.id(of: hash(2))])
        #expect(try await f.store.sessionUser(tokenHash: hash(5), now: start)?.user == bob.user, "another user's stay")
        #expect(try await f.store.deleteSessions(of: ada.user.id, except: nil) == 1)
        #expect(try await f.store.sessionUser(tokenHash: hash(2), now: start) == nil)
        #expect(try await f.store.deleteSessions(of: ada.user.id, except: nil) == 0)
    }

    @Test("Disabling an account ends its sessions and refuses its tokens until it is enabled", arguments: StoreKind.allCases)
    func disable(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let bob = try await f.account("bob")
        let start = instant("2025-06-15T10:00:00Z"), end = instant("2025-07-15T10:00:00Z")
        try await f.store.createSession(tokenHash: hash(1), of: bob.user.id, device: "browser", createdAt: start, expiresAt: end, replacing: nil)
        try await f.store.createAPIToken(APITokenInfo(id: UUID(), name: "shortcut", createdAt: start), tokenHash: hash(2), of: bob.user.id)
        let disabled = instant("2025-06-20T10:00:00Z")
        try await f.store.setDisabled(bob.user.id, at: disabled)
        #expect(try await f.store.account(named: "bob")?.disabledAt == disabled)
        #expect(try await f.store.sessionUser(tokenHash: hash(1), now: disabled) == nil)
        #expect(try await f.store.tokenUser(tokenHash: hash(2), now: disabled) == nil)
        // A session made while disabled is refused too.
        try await f.store.createSession(tokenHash: hash(3), of: bob.user.id, device: "browser", createdAt: disabled, expiresAt: end, replacing: nil)
        #expect(try await f.store.sessionUser(tokenHash: hash(3), now: disabled) == nil)

        try await f.store.setDisabled(bob.user.id, at: nil)
        #expect(try await f.store.account(named: "bob")?.disabledAt == nil)
        #expect(try await f.store.tokenUser(tokenHash: hash(2), now: disabled)?.user == bob.user, "the token works again")
        #expect(try await f.store.sessionUser(tokenHash: hash(1), now: disabled) == nil, "the ended session stays ended")
        await #expect(throws: TallyError.notFound("There is no account with the id \(f.user.id).")) {
            try await f.store.setDisabled(f.user.id, at: disabled)
        }
    }

    @Test("A token finds its user until it is revoked or expires; only its owner revokes it", arguments: StoreKind.allCases)
    func apiTokens(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada2")
        let bob = try await f.account("bob")
        let start = instant("2025-06-15T10:00:00Z")
        let forever = APITokenInfo(id: UUID(), name: "shortcut", createdAt: start)
        let brief = APITokenInfo(id: UUID(), name: "script", createdAt: start.addingTimeInterval(60), expiresAt: instant("2025-06-16T10:00:00Z"))
        try await f.store.createAPIToken(brief, tokenHash: hash(2), of: ada.user.id)
        try await f.store.createAPIToken(forever, tokenHash: hash(1), of: ada.user.id)
        #expect(try await f.store.apiTokens(of: ada.user.id) == [forever, brief], "in the order they were made")
        #expect(try await f.store.apiTokens(of: bob.user.id).isEmpty)

        let found = try #require(try await f.store.tokenUser(tokenHash: hash(1), now: start))
        #expect(found.user == ada.user && found.lastSeenAt == nil)
        let used = instant("2025-06-15T12:00:00Z")
        try await f.store.touchAPIToken(tokenHash: hash(1), at: used)
        #expect(try await f.store.tokenUser(tokenHash: hash(1), now: used)?.lastSeenAt == used)
        #expect(try await f.store.apiTokens(of: ada.user.id).first?.lastUsedAt == used)
        #expect(try await f.store.tokenUser(tokenHash: hash(2), now: used)?.user == ada.user)
        #expect(try await f.store.tokenUser(tokenHash: hash(2), now: instant("2025-06-16T10:00:00Z")) == nil, "expired")
        #expect(try await f.store.tokenUser(tokenHash: hash(1), now: instant("2035-06-16T10:00:00Z"))?.user == ada.user,
                "a token without an expiry lasts")

        await #expect(throws: TallyError.notFound("There is no token with the id \(forever.id).")) {
            try await f.store.revokeAPIToken(id: forever.id, of: bob.user.id, at: used)
        }
        #expect(try await f.store.tokenUser(tokenHash: hash(1), now: used)?.user == ada.user)
        try await f.store.revokeAPIToken(id: forever.id, of: ada.user.id, at: used)
        #expect(try await f.store.tokenUser(tokenHash: hash(1), now: used) == nil)
        try await f.store.revokeAPIToken(id: forever.id, of: ada.user.id, at: instant("2025-06-20T12:00:00Z"))
        #expect(try await f.store.apiTokens(of: ada.user.id).first?.revokedAt == used, "revoked once, when it was first revoked")
        await #expect(throws: TallyError.notFound("There is no token with the id \(bob.user.id).")) {
            try await f.store.revokeAPIToken(id: bob.user.id, of: ada.user.id, at: used)
        }
    }

    @Test("A known token is checked again in the first transaction of its request: refused once revoked, expired, disabled or another's, before anything is read or written",
          arguments: StoreKind.allCases)
    func tokenAdmission(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada2")
        let bob = try await f.account("bob")
        let start = instant("2025-06-15T10:00:00Z"), expiry = instant("2025-06-16T10:00:00Z")
        let forever = APITokenInfo(id: UUID(), name: "shortcut", createdAt: start)
        try await f.store.createAPIToken(forever, tokenHash: hash(1), of: ada.user.id)
        try await f.store.createAPIToken(APITokenInfo(id: UUID(), name: "script", createdAt: start, expiresAt: expiry),
                                         tokenHash: hash(2), of: ada.user.id)
        let store = f.store
        func asking<T: Sendable>(_ admission: TokenAdmission, _ work: () async throws -> T) async throws -> T {
            try await TokenAdmission.$current.withValue(admission) { try await work() }
        }

        let admitted = TokenAdmission(tokenHash: hash(1), user: ada.user.id, now: start)
        #expect(admitted.checked == .unchecked)
        #expect(try await asking(admitted) { try await store.settings(of: ada.user.id) } == HydrationSettings(timeZone: "Europe/Berlin"))
        #expect(admitted.checked == .admitted)
        #expect(try await asking(TokenAdmission(tokenHash: hash(2), user: ada.user.id, now: start)) { try await store.signUpMode() } == .standard)

        let refusals: [(String, TokenAdmission)] = [
            ("another's user", TokenAdmission(tokenHash: hash(1), user: bob.user.id, now: start)),
            ("unknown", TokenAdmission(tokenHash: hash(3), user: ada.user.id, now: start)),
            ("expired", TokenAdmission(tokenHash: hash(2), user: ada.user.id, now: expiry)),
        ]
        for (why, admission) in refusals {
            await #expect(throws: TokenAdmission.Refused.self, "\(why): a read") {
                try await asking(admission) { try await store.settings(of: ada.user.id) }
            }
            await #expect(throws: TokenAdmission.Refused.self, "\(why): a write") {
                try await asking(admission) { try await store.setSignUpMode(.closed) }
            }
            await #expect(throws: TokenAdmission.Refused.self, "\(why): on its own") { try await store.admit(admission) }
            #expect(admission.checked == .refused, "\(why)")
        }
        #expect(try await store.signUpMode() == .standard, "a refused write wrote nothing")

        try await store.setDisabled(ada.user.id, at: start)
        await #expect(throws: TokenAdmission.Refused.self, "a disabled account's token") {
            try await asking(TokenAdmission(tokenHash: hash(1), user: ada.user.id, now: start)) { try await store.setSignUpMode(.closed) }
        }
        try await store.setDisabled(ada.user.id, at: nil)
        try await store.admit(TokenAdmission(tokenHash: hash(1), user: ada.user.id, now: start))

        try await store.revokeAPIToken(id: forever.id, of: ada.user.id, at: start)
        let revoked = TokenAdmission(tokenHash: hash(1), user: ada.user.id, now: start)
        await #expect(throws: TokenAdmission.Refused.self) { try await asking(revoked) { try await store.setSignUpMode(.closed) } }
        await #expect(throws: TokenAdmission.Refused.self, "every later transaction of the request too") {
            try await asking(revoked) { try await store.signUpMode() }
        }
        #expect(try await store.signUpMode() == .standard)
    }
}
