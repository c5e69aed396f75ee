import Foundation
import TallyCore

/// A user who can sign in: the user, their password hash and what the server knows of them.
public struct Account: Equatable, Sendable {
    public var user: User
    public var passwordHash: String
    public var isAdmin: Bool
    /// Failed sign-ins since the last successful one, for the slow-down.
    public var failedSignIns: Int
    public var lastFailedSignInAt: Date?

    public init(user: User, passwordHash: String, isAdmin: Bool, failedSignIns: Int = 0, lastFailedSignInAt: Date? = nil) {
        self.user = user
        self.passwordHash = passwordHash
        self.isAdmin = isAdmin
        self.failedSignIns = failedSignIns
        self.lastFailedSignInAt = lastFailedSignInAt
    }
}

/// A personal API token as listed: never the token itself, which is shown once and stored hashed.
public struct APITokenInfo: Codable, Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: UUID, name: String, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// Accounts, sessions and API tokens (A1). Secrets are stored only as hashes: `tokenHash` is
/// the SHA-256 of the secret the client holds.
public protocol AccountRepository: Sendable {
    /// Stores a user with a password; the first account of a store becomes its admin. Returns
    /// the account as stored.
    func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind]) async throws -> Account
    /// Gives an existing user (such as the CLI's local one) a password.
    func setPassword(of user: UUID, to passwordHash: String) async throws
    func account(named name: String) async throws -> Account?
    func accounts() async throws -> [Account]
    func recordFailedSignIn(of user: UUID, at: Date) async throws
    func resetFailedSignIns(of user: UUID) async throws

    func createSession(tokenHash: Data, of user: UUID, createdAt: Date, expiresAt: Date) async throws
    /// The user of an unexpired session.
    func sessionUser(tokenHash: Data, now: Date) async throws -> User?
    func deleteSession(tokenHash: Data) async throws

    func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws
    func apiTokens(of user: UUID) async throws -> [APITokenInfo]
    /// Revokes one of the user's tokens; another user's token is not found.
    func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws
    /// The user of a token that is not revoked.
    func tokenUser(tokenHash: Data) async throws -> User?
}
