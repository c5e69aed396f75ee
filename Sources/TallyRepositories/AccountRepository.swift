import Foundation
import TallyCore

/// A user who can sign in: the user, their password hash and what the server knows of them.
public struct Account: Equatable, Sendable {
    public var user: User
    public var passwordHash: String
    public var isAdmin: Bool
    /// When the admin disabled the account: its sessions are gone and its tokens refused.
    public var disabledAt: Date?

    public init(user: User, passwordHash: String, isAdmin: Bool, disabledAt: Date? = nil) {
        self.user = user
        self.passwordHash = passwordHash
        self.isAdmin = isAdmin
        self.disabledAt = disabledAt
    }
}

/// Who may create an account on a server that already has one (A1).
public enum SignUpMode: String, Codable, Sendable, CaseIterable {
    /// Anyone who can reach the server.
    case open
    /// Whoever has a server invite the admin made.
    case invite
    /// Nobody: the admin creates accounts.
    case closed

    /// After the first account: a server on the internet is not open to all unless its admin says so.
    public static let standard = SignUpMode.invite
}

extension SignUpMode {
    /// Lets a sign-up through this mode, or refuses it: the hash of the invite it must spend
    /// (in invite mode), nil when nothing needs spending (open). Each store spends it in the
    /// sign-up's transaction, refusing with `inviteUsedUp` when it cannot.
    package func inviteToSpend(_ inviteHash: Data?) throws -> Data? {
        switch self {
        case .open:
            return nil
        case .closed:
            throw TallyError.conflict("Sign-up is closed on this server: ask its admin for an account.")
        case .invite:
            guard let inviteHash else {
                throw TallyError.invalid("This server takes new accounts by invite only: open the invite link you were given, or ask its admin for one.")
            }
            return inviteHash
        }
    }

    /// Refuses a ledger invite's sign-up when sign-up is closed: it stands for a server invite,
    /// not for the admin.
    package func admitLedgerInvite() throws {
        if self == .closed { _ = try inviteToSpend(nil) }
    }

    package static let ledgerInviteInvalid = TallyError.invalid(
        "This invite link is not valid any more (revoked, expired or used up): ask for a new one.")

    package static let inviteUsedUp = TallyError.invalid(
        "This invite is not valid any more (expired or used up): ask the server's admin for a new one.")
}

/// How an account comes to be.
public enum AccountCreation: Sendable {
    /// By the person, through sign-up: the server's mode applies (the hash of their invite code, if any).
    case signUp(inviteHash: Data?)
    /// By the person, through a ledger's invite link (the hash of its code): the invite stands
    /// for a server invite, so it lets them in when sign-up is by invite, but never when sign-up
    /// is closed. The invite must be valid. With `join`, the new account joins the ledger as the
    /// member it picks, spending one of the invite's uses, in the account's own transaction: no
    /// account is made unless it joins. Without it (a provider's sign-in, where the person picks
    /// afterwards), joining is a step of its own.
    case ledgerInvite(codeHash: Data, join: MemberChooser?)
    /// By the admin, on the server's own database (`tally user create`).
    case byAdmin
}

/// A server invite as listed: never its code, which is shown once and stored hashed.
public struct SignUpInviteInfo: Codable, Equatable, Sendable {
    public var id: String
    public var createdAt: Date
    public var expiresAt: Date
    public var usesLeft: Int

    public init(id: String, createdAt: Date, expiresAt: Date, usesLeft: Int) {
        self.id = id
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usesLeft = usesLeft
    }
}



/// The user behind a session or a token, and when it was last seen (touched at most every few
/// minutes, so that reading who is asking does not become a write on every request).
public struct Credentialed: Sendable {
    public var user: User
    public var lastSeenAt: Date?
    /// An API token's scope and end (nil for a session).
    public var token: TokenGrant?

    public init(user: User, lastSeenAt: Date?, token: TokenGrant? = nil) {
        self.user = user
        self.lastSeenAt = lastSeenAt
        self.token = token
    }
}

/// What an API token lets its holder do, and until when (nil: for good).
public struct TokenGrant: Equatable, Sendable {
    public var scope: TokenScope
    public var expiresAt: Date?

    public init(scope: TokenScope, expiresAt: Date?) {
        self.scope = scope
        self.expiresAt = expiresAt
    }
}

/// One key the sign-in throttle counts attempts under, and how many it allows before slowing.
public struct ThrottleKey: Sendable {
    public var key: String
    public var freeAttempts: Int

    public init(_ key: String, freeAttempts: Int) {
        self.key = key
        self.freeAttempts = freeAttempts
    }
}

/// Accounts, sessions and API tokens (A1). Secrets are stored only as hashes: `tokenHash` is
/// the SHA-256 of the secret the client holds.
public protocol AccountRepository: Sendable {
    /// Stores a user with a password; the first account of a store becomes its admin, whatever
    /// the mode. A sign-up after it is refused when the mode does not let it in, and uses up one
    /// use of its invite, in the same transaction. Returns the account as stored.
    func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                       by creation: AccountCreation, now: Date) async throws -> Account
    /// Gives an existing user (such as the CLI's local one) a password.
    func setPassword(of user: UUID, to passwordHash: String) async throws
    func account(named name: String) async throws -> Account?
    func accounts() async throws -> [Account]
    /// How many accounts there are (users with a password), without reading them.
    func accountCount() async throws -> Int
    /// Disables (a date) or enables (nil) an account; disabling ends its sessions.
    func setDisabled(_ user: UUID, at: Date?) async throws

    func signUpMode() async throws -> SignUpMode
    func setSignUpMode(_ mode: SignUpMode) async throws
    func createSignUpInvite(codeHash: Data, createdAt: Date, expiresAt: Date, uses: Int) async throws -> SignUpInviteInfo
    /// The invites that can still be used.
    func signUpInvites(now: Date) async throws -> [SignUpInviteInfo]
    func deleteSignUpInvite(id: String) async throws

    /// Records a sign-in attempt under each key before its password is checked, refusing it
    /// (too many requests) when a key has had more than its free attempts recently. Atomic, so
    /// that parallel guesses cannot all pass the check before any is recorded.
    func reserveSignInAttempt(_ keys: [ThrottleKey], now: Date) async throws
    /// After a sign-in succeeded: forgets every attempt under `forgetting` (the account from
    /// this address), the one attempt reserved `at` under each of `releasing` (a client address
    /// counts failures, not a household's daily sign-ins), and records `trusting`, if any, for
    /// `SignInThrottle.trust`.
    func signInSucceeded(forgetting: [String], releasing: [String], trusting: String?, at: Date) async throws
    /// Whether `key` was recorded by a sign-in that succeeded within `SignInThrottle.trust`.
    func isTrusted(_ key: String, now: Date) async throws -> Bool
    /// The admin lifts the throttle on an account: its attempts from every address are forgotten.
    func clearSignInAttempts(account name: String) async throws

    /// Creates a session; `replacing` (the browser's previous one, if any) is deleted with it.
    func createSession(tokenHash: Data, of user: UUID, device: String, createdAt: Date, expiresAt: Date, replacing: Data?) async throws
    /// The user of an unexpired session of an enabled account.
    func sessionUser(tokenHash: Data, now: Date) async throws -> Credentialed?
    func touchSession(tokenHash: Data, at: Date) async throws
    func deleteSession(tokenHash: Data) async throws
    func sessions(of user: UUID, now: Date) async throws -> [SessionInfo]
    /// Ends every session of the user but `except`; returns how many ended.
    @discardableResult
    func deleteSessions(of user: UUID, except: Data?) async throws -> Int

    func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws
    func apiTokens(of user: UUID) async throws -> [APITokenInfo]
    /// Revokes every token of the user that still works; returns how many.
    @discardableResult
    func revokeAPITokens(of user: UUID, at: Date) async throws -> Int
    /// Revokes one of the user's tokens; another user's token is not found.
    func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws
    /// The user of a token that is neither revoked nor expired, of an enabled account.
    func tokenUser(tokenHash: Data, now: Date) async throws -> Credentialed?
    func touchAPIToken(tokenHash: Data, at: Date) async throws
    /// Checks a known token in a read of its own, for a request that opened no transaction:
    /// throws `TokenAdmission.Refused` when it no longer admits its holder.
    func admit(_ admission: TokenAdmission) async throws
}

/// The refusal of a throttled sign-in in every store: how long to wait, in whole seconds.
package func signInThrottled(_ wait: TimeInterval) -> TallyError {
    let seconds = Int(wait.rounded(.up))
    return TallyError(.tooManyRequests, Phrase(one: "Too many sign-in attempts; try again in \(seconds) second.",
                                               other: "Too many sign-in attempts; try again in \(seconds) seconds."),
                      retryAfter: seconds)
}
