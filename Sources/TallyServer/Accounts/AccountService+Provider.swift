import Crypto
import Foundation
import TallyCore
import TallyRepositories

/// Signing in through the household's OpenID provider: an account is found by the provider's
/// subject, never by a name or an e-mail address; a first sign-in creates one when sign-up lets
/// the person in, and a signed-in person links their account to the provider.
extension AccountService {
    /// The outcome of a provider's sign-in.
    struct ProviderSignIn: Sendable {
        var account: Account
        var session: String
        /// The account was made by this sign-in.
        var isNew: Bool
    }

    /// Signs in the account linked to `identity`, or creates it (sign-up's mode and invites as
    /// for a password; the flow's invite or ledger invite comes along).
    func signIn(as identity: ProviderIdentity, flow: OpenIDFlow, client: String?, device: String,
                replacing previous: String?) async throws -> ProviderSignIn {
        if let account = try await store.account(linkedTo: identity.subject) {
            try Self.requireEnabled(account)
            return ProviderSignIn(account: account, session: try await newSession(for: account, device: device, replacing: previous),
                                  isNew: false)
        }
        let attempt = try await reserveSignUp(client: client)
        let creation: AccountCreation
        do {
            creation = try await admission(invite: flow.invite, ledgerInvite: flow.join)
        } catch let refusal as TallyError {
            // The provider vouched for the person; the server does not let them in (403).
            throw TallyError(.forbidden, refusal.phrase)
        }
        guard let name = try await firstFreeName(AccountRules.providerNames(from: identity.names)) else {
            throw TallyError.conflict("Every name your provider offers is taken here: ask the server's admin to create your account.")
        }
        // No password: the account signs in through the provider until its owner sets one.
        let account = try await store.createAccount(
            User(name: name, createdAt: clock.now), passwordHash: PasswordHasher.noPassword, settings: HydrationSettings(timeZone: UserTimeZone.systemDefault),
            kinds: DrinkFactorSet.builtInKinds(), by: creation, linkedTo: identity.subject, now: clock.now)
        try await release(attempt)
        return ProviderSignIn(account: account, session: try await newSession(for: account, device: device, replacing: previous), isNew: true)
    }

    private func firstFreeName(_ names: [String]) async throws -> String? {
        for name in names where try await store.user(named: name) == nil { return name }
        return nil
    }

    /// Links the signed-in person's account to the subject the provider just signed in.
    func link(_ user: User, to identity: ProviderIdentity) async throws {
        try await store.link(user.id, to: identity.subject, at: clock.now)
    }

    /// Removes the account's link to the provider. Refused when the server takes no passwords:
    /// the person could not sign in any more.
    func unlinkProvider(of user: User) async throws {
        guard let provider else { return }
        try requirePasswordSignIn()
        guard try await hasPassword(user) else {
            throw TallyError.conflict("Set a password first: without the link or a password, nothing would sign you in.")
        }
        try await store.unlink(user.id, issuer: provider.settings.issuer)
    }

    /// Whether the account has a password of its own (one made by a provider's sign-in has none
    /// until its owner sets one).
    func hasPassword(_ user: User) async throws -> Bool {
        try await account(of: user)?.hasPassword ?? false
    }

    /// The user's account as stored: its rights and its password's standing, read once.
    func account(of user: User) async throws -> Account? {
        try await store.account(named: user.name)
    }

    /// How the account stands with this server's provider, for its page; nil without one.
    func providerLink(of user: User) async throws -> AccountPage.Provider? {
        guard let provider else { return nil }
        let link = try await store.providerLinks(of: user.id).first { $0.issuer == provider.settings.issuer }
        return AccountPage.Provider(name: provider.settings.name, linkedAt: link?.linkedAt, passwords: passwordSignIn)
    }

    /// Counts a provider's answer against the address it came from, as a password sign-in is
    /// counted (20 free, then slower): each one makes Tally ask the provider for a token.
    func reserveProviderAnswer(client: String?) async throws -> (key: String, at: Date) {
        let key = SignInThrottle.addressKey(client ?? "unknown")
        let at = clock.now
        try await store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: SignInThrottle.freeAttemptsPerAddress)], now: at)
        return (key, at)
    }

    /// The key a sign-in's flow is sealed with in the browser's cookie.
    func flowKey() async throws -> SymmetricKey {
        OpenIDFlow.key(from: try await secrets.csrfKey())
    }
}

/// How people sign in on this server, for the sign-in and sign-up pages.
struct SignInChoices: Sendable {
    /// The provider's name, when people may sign in through it.
    var provider: String?
    var passwords: Bool

    static let passwordsOnly = SignInChoices(provider: nil, passwords: true)
}

extension AccountService {
    var signInChoices: SignInChoices {
        SignInChoices(provider: provider?.settings.name, passwords: passwordSignIn)
    }
}
