import Crypto
import Foundation
import HummingbirdBcrypt
import TallyCore
import TallyStore

/// Sign-up, sign-in, sessions and API tokens (A1). Secrets leave it once, to their holder; the
/// store keeps only their hashes.
public struct AccountService: Sendable {
    public let store: any TallyStorage
    public let clock: any WallClock
    public let passwordCost: Int
    public let sessionLifetime: TimeInterval

    public init(store: any TallyStorage, clock: any WallClock, passwordCost: Int = 12,
                sessionLifetime: TimeInterval = 30 * 24 * 3600) {
        self.store = store
        self.clock = clock
        self.passwordCost = passwordCost
        self.sessionLifetime = sessionLifetime
    }

    // MARK: - Accounts

    /// Creates an account; the first one on a fresh server is the admin.
    public func signUp(name: String, password: String, timeZone: String? = nil) async throws -> Account {
        let name = try AccountRules.validateName(name)
        try AccountRules.validatePassword(password)
        // Checked, and kept as given: Foundation on Linux names UTC's TimeZone "GMT".
        let zone = try timeZone.map(UserTimeZone.validated) ?? UserTimeZone.systemDefault
        let hash = await hashPassword(password)
        return try await store.createAccount(
            User(name: name, createdAt: clock.now), passwordHash: hash,
            settings: HydrationSettings(timeZone: zone), kinds: DrinkFactorSet.builtInKinds())
    }

    /// Gives an existing user a new password.
    public func setPassword(of user: User, to password: String) async throws {
        try AccountRules.validatePassword(password)
        try await store.setPassword(of: user.id, to: await hashPassword(password))
    }

    /// Checks a name and password, slowing down repeated failures; returns the account and a new
    /// session's secret.
    public func signIn(name: String, password: String) async throws -> (account: Account, session: String) {
        let wrong = TallyError(.unauthorized, "The user name or the password is wrong.")
        guard let account = try await store.account(named: name.trimmingCharacters(in: .whitespaces)) else {
            // Spend the time a real check takes, so that timing does not tell which names exist.
            _ = await verify(password, hash: Self.decoyHash)
            throw wrong
        }
        let now = clock.now
        if let wait = SignInThrottle.wait(failures: account.failedSignIns, lastFailure: account.lastFailedSignInAt, now: now) {
            throw TallyError(.tooManyRequests,
                             "Too many failed sign-ins for \(account.user.name); try again in \(Int(wait.rounded(.up))) seconds.")
        }
        guard await verify(password, hash: account.passwordHash) else {
            try await store.recordFailedSignIn(of: account.user.id, at: now)
            throw wrong
        }
        try await store.resetFailedSignIns(of: account.user.id)
        let secret = Self.newSecret()
        try await store.createSession(tokenHash: Self.hash(secret), of: account.user.id,
                                      createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime))
        return (account, secret)
    }

    public func signOut(session: String) async throws {
        try await store.deleteSession(tokenHash: Self.hash(session))
    }

    public func user(forSession secret: String) async throws -> User? {
        try await store.sessionUser(tokenHash: Self.hash(secret), now: clock.now)
    }

    // MARK: - API tokens

    /// A new token: the secret is returned once and never stored.
    public func createAPIToken(for user: User, name: String) async throws -> (info: APITokenInfo, secret: String) {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...60).contains(name.count) else {
            throw TallyError.invalid("A token needs a name of 1 to 60 characters, such as \"laptop\".")
        }
        let info = APITokenInfo(id: UUID(), name: name, createdAt: clock.now)
        let secret = "tally_" + Self.newSecret()
        try await store.createAPIToken(info, tokenHash: Self.hash(secret), of: user.id)
        return (info, secret)
    }

    public func apiTokens(of user: User) async throws -> [APITokenInfo] {
        try await store.apiTokens(of: user.id)
    }

    public func revokeAPIToken(id: UUID, of user: User) async throws {
        try await store.revokeAPIToken(id: id, of: user.id, at: clock.now)
    }

    public func user(forAPIToken secret: String) async throws -> User? {
        try await store.tokenUser(tokenHash: Self.hash(secret))
    }

    // MARK: - Secrets

    static func hash(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// 256 random bits, base64url without padding: safe in cookies, headers and URLs.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static let decoyHash = Bcrypt.hash("not a password of anyone", cost: 4)

    // bcrypt takes a quarter of a second on purpose: keep it off Swift's few cooperative threads.
    private func hashPassword(_ password: String) async -> String {
        let cost = passwordCost
        return await offloaded { Bcrypt.hash(password, cost: UInt8(cost)) }
    }

    private func verify(_ password: String, hash: String) async -> Bool {
        await offloaded { Bcrypt.verify(password, hash: hash) }
    }

    private func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
