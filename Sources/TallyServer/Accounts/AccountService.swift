import Crypto
import Foundation
import TallyAPI
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Sign-up, sign-in, sessions and API tokens (A1). Secrets leave it once, to their holder; the
/// store keeps only their hashes.
public struct AccountService: Sendable {
    public let store: any TallyStorage
    public let clock: any WallClock
    public let sessionLifetime: TimeInterval
    let hasher: PasswordHasher
    let secrets: ServerSecrets
    let knownTokens = KnownTokens()
    /// The household's OpenID provider, when people sign in through it.
    let provider: OpenIDProvider?
    /// Whether people may sign in and up with a name and a password (TALLY_PASSWORD_SIGNIN).
    public let passwordSignIn: Bool

    public init(store: any TallyStorage, clock: any WallClock, passwordCost: Int = 12,
                sessionLifetime: TimeInterval = 30 * 24 * 3600) {
        self.init(store: store, clock: clock, passwordCost: passwordCost, sessionLifetime: sessionLifetime, provider: nil)
    }

    init(store: any TallyStorage, clock: any WallClock, passwordCost: Int, sessionLifetime: TimeInterval,
         provider: OpenIDProvider?, passwordSignIn: Bool = true) {
        self.store = store
        self.clock = clock
        self.sessionLifetime = sessionLifetime
        self.provider = provider
        self.passwordSignIn = passwordSignIn
        hasher = PasswordHasher(cost: passwordCost)
        secrets = ServerSecrets(store: store)
    }

    public var passwordCost: Int { hasher.cost }

    // MARK: - Accounts

    /// Creates an account through sign-up: the first one on a fresh server is the admin; after
    /// it, the server's sign-up mode decides, and `invite` is the code of a server invite. Like a
    /// sign-in, a sign-up is throttled per client address (a success gives its attempt back, so
    /// that a household can sign up together), and every refusal that needs no password work
    /// comes before it: a closed server, a missing or spent invite, a name that is taken.
    /// `joining` is a ledger's invite link instead (its code, and the member the person picked):
    /// it stands for a server invite, but never opens a closed server, and the account is made
    /// only as it joins the ledger, spending one of the invite's uses (S1).
    public func signUp(name: String, password: String, timeZone: String? = nil, invite: String? = nil,
                       joining: (code: String, as: MemberChooser)? = nil, client: String? = nil) async throws -> Account {
        try requirePasswordSignIn()
        let name = try AccountRules.validateName(name)
        try AccountRules.validatePassword(password)
        let attempt = try await reserveSignUp(client: client)
        let creation = try await admission(invite: invite, ledgerInvite: joining?.code, join: joining?.as)
        if try await store.user(named: name) != nil { throw TallyError.conflict("There is already a user named \(name).") }
        let account = try await create(name: name, password: password, timeZone: timeZone, by: creation)
        try await release(attempt)
        return account
    }

    /// Counts a sign-up against its client address (each one, until it succeeds).
    func reserveSignUp(client: String?) async throws -> (key: String, at: Date) {
        let key = SignInThrottle.signUpKey(client ?? "unknown")
        let attempted = clock.now
        do {
            try await store.reserveSignInAttempt([ThrottleKey(key, freeAttempts: SignInThrottle.freeSignUpsPerAddress)], now: attempted)
        } catch let error as TallyError where error.kind == .tooManyRequests {
            let seconds = error.retryAfter ?? 1
            throw TallyError(.tooManyRequests, Phrase(one: "Too many sign-ups from your address; try again in \(seconds) second.",
                                                      other: "Too many sign-ups from your address; try again in \(seconds) seconds."),
                             retryAfter: seconds)
        }
        return (key, attempted)
    }

    /// Gives an attempt that succeeded back to its address.
    func release(_ attempt: (key: String, at: Date)) async throws {
        try await store.signInSucceeded(forgetting: [], releasing: [attempt.key], trusting: nil, at: attempt.at)
    }

    /// How a sign-up comes in: through a ledger's invite (its code, and the member it joins as,
    /// if picked already), or through the server's mode with the code of a server invite, if
    /// any; refused here when the store would refuse it.
    func admission(invite: String?, ledgerInvite: String?, join: MemberChooser? = nil) async throws -> AccountCreation {
        if let ledgerInvite {
            let codeHash = InviteCode.hash(ledgerInvite)
            try await admitLedgerInvite(codeHash: codeHash)
            return .ledgerInvite(codeHash: codeHash, join: join)
        }
        let code = invite.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        let inviteHash = code.map(Self.hash)
        try await admitSignUp(inviteHash: inviteHash)
        return .signUp(inviteHash: inviteHash)
    }

    /// Refuses a sign-in or sign-up with a password on a server that has turned them off.
    func requirePasswordSignIn() throws {
        guard passwordSignIn else {
            throw TallyError(.forbidden, "This server does not take passwords: sign in through your provider.")
        }
    }

    /// Refuses a sign-up that the server's mode does not let in (closed, or an invite that is
    /// missing, unknown or used up), as the store would in the sign-up's own transaction.
    private func admitSignUp(inviteHash: Data?) async throws {
        guard try await !awaitsFirstAccount(), let hash = try await store.signUpMode().inviteToSpend(inviteHash) else { return }
        let id = SessionInfo.id(of: hash)
        guard try await store.signUpInvites(now: clock.now).contains(where: { $0.id == id }) else { throw SignUpMode.inviteUsedUp }
    }

    /// Refuses a ledger invite's sign-up on a closed server, or with an invite that opens nothing,
    /// as the store would in the sign-up's own transaction.
    private func admitLedgerInvite(codeHash: Data) async throws {
        if try await !awaitsFirstAccount() { try await store.signUpMode().admitLedgerInvite() }
        guard try await store.invitedLedger(codeHash: codeHash, at: clock.now) != nil else { throw SignUpMode.ledgerInviteInvalid }
    }

    /// The ledger a ledger invite opens, for someone without an account to see before they
    /// create one; nil when the code opens nothing (any more).
    public func ledgerInvitation(code: String) async throws -> LedgerDetails? {
        try await store.invitedLedger(codeHash: InviteCode.hash(code), at: clock.now)
    }

    /// Creates an account as the server's admin does, whatever the sign-up mode.
    public func createAccount(name: String, password: String, timeZone: String? = nil) async throws -> Account {
        try await create(name: name, password: password, timeZone: timeZone, by: .byAdmin)
    }

    private func create(name: String, password: String, timeZone: String?, by creation: AccountCreation) async throws -> Account {
        let name = try AccountRules.validateName(name)
        try AccountRules.validatePassword(password)
        // Checked, and kept as given: Foundation on Linux names UTC's TimeZone "GMT".
        let zone = try timeZone.map(UserTimeZone.validated) ?? UserTimeZone.systemDefault
        let hash = try await hasher.hash(password)
        return try await store.createAccount(
            User(name: name, createdAt: clock.now), passwordHash: hash,
            settings: HydrationSettings(timeZone: zone), kinds: DrinkFactorSet.builtInKinds(), by: creation, now: clock.now)
    }

    /// Gives an existing user a new password.
    public func setPassword(of user: User, to password: String) async throws {
        try AccountRules.validatePassword(password)
        try await store.setPassword(of: user.id, to: try await hasher.hash(password))
    }

    /// A person's own change of password: the current one must be right; every other session
    /// ends (someone who knew the old password is signed out). Returns how many ended.
    public func changePassword(of user: User, current: String, new: String, keeping session: String?) async throws -> Int {
        try AccountRules.validatePassword(new)
        let account = try await store.account(named: user.name)
        // An account a provider made has no password to give: its first one is set without.
        let first = account.map { !$0.hasPassword } ?? false
        if !first, try await !hasher.verify(current, against: account?.passwordHash) {
            throw TallyError.invalid("The current password is wrong; the password was not changed.")
        }
        try await store.setPassword(of: user.id, to: try await hasher.hash(new))
        return try await store.deleteSessions(of: user.id, except: session.map(Self.hash))
    }

    /// Checks a name and password, throttled before the slow hash is reached (see
    /// `SignInThrottle`); returns the account and a new session's secret. Every refusal reads
    /// the same whether the name exists or not, and costs the same.
    public func signIn(name: String, password: String, client: String? = nil, device: String = "a browser",
                       replacing previous: String? = nil) async throws -> (account: Account, session: String) {
        try requirePasswordSignIn()
        let name = name.trimmingCharacters(in: .whitespaces)
        let address = client ?? "unknown"
        let pair = SignInThrottle.pairKey(name, address), trust = SignInThrottle.trustKey(name, address)
        var keys = [ThrottleKey(pair, freeAttempts: SignInThrottle.freeAttemptsPerAccountAndAddress)]
        if let client { keys.append(ThrottleKey(SignInThrottle.addressKey(client), freeAttempts: SignInThrottle.freeAttemptsPerAddress)) }
        let attempted = clock.now
        // The ceiling per account holds back a crowd of addresses, not one the account knows.
        if try await !store.isTrusted(trust, now: attempted) {
            keys.append(ThrottleKey(SignInThrottle.accountKey(name), freeAttempts: SignInThrottle.freeAttemptsPerAccount))
        }
        try await store.reserveSignInAttempt(keys, now: attempted)
        let account = try await store.account(named: name)
        guard try await hasher.verify(password, against: account?.passwordHash), let account else {
            throw TallyError(.unauthorized, "The user name or the password is wrong.")
        }
        try Self.requireEnabled(account)
        try await store.signInSucceeded(forgetting: [pair], releasing: keys.dropFirst().map(\.key), trusting: trust, at: attempted)
        return (account, try await newSession(for: account, device: device, replacing: previous))
    }

    static func requireEnabled(_ account: Account) throws {
        guard account.disabledAt == nil else {
            throw TallyError(.unauthorized, "This account is disabled: ask the server's admin.")
        }
    }

    /// A new session's secret for a person who just proved who they are; `previous` (the
    /// browser's session before, if any) ends with it.
    func newSession(for account: Account, device: String, replacing previous: String?) async throws -> String {
        let secret = Self.newSecret()
        let now = clock.now
        try await store.createSession(tokenHash: Self.hash(secret), of: account.user.id, device: String(device.prefix(120)),
                                      createdAt: now, expiresAt: now.addingTimeInterval(sessionLifetime),
                                      replacing: previous.map(Self.hash))
        return secret
    }

    public func signOut(session: String) async throws {
        try await store.deleteSession(tokenHash: Self.hash(session))
    }

    /// Ends every session of the user but `session` (the one asking); returns how many ended.
    public func signOutEverywhere(_ user: User, except session: String?) async throws -> Int {
        try await store.deleteSessions(of: user.id, except: session.map(Self.hash))
    }

    /// Whether the user's account may run the server (A1).
    public func isAdmin(_ user: User) async throws -> Bool {
        try await account(of: user)?.isAdmin ?? false
    }

    /// A new secret address for the user's calendar feed, shown this once; it replaces any earlier one.
    public func newCalendarSecret(of user: User) async throws -> String {
        let secret = Self.newSecret()
        try await store.setCalendarSecret(hash: Self.hash(secret), of: user.id)
        return secret
    }

    public func revokeCalendarSecret(of user: User) async throws {
        try await store.setCalendarSecret(hash: nil, of: user.id)
    }

    /// The calendar feed whose secret is `secret`, from yesterday on; nil when no feed has it.
    public func calendarFeed(secret: String) async throws -> String? {
        guard let owner = try await store.calendarOwner(secretHash: Self.hash(secret)) else { return nil }
        let now = clock.now
        let zone = owner.settings.zone
        let windows = try await store.dayWindows(owner.reminders, of: owner.user.id, now: now, zone: zone)
        let written = Written(chosen: owner.user.language.flatMap(Language.matching), acceptLanguage: nil)
        return CalendarFeed.ics(windows, from: LocalDate(containing: now, in: zone).adding(days: -1), now: now, name: owner.user.name,
                                say: written.say)
    }

    public func sessions(of user: User) async throws -> [SessionInfo] {
        try await store.sessions(of: user.id, now: clock.now)
    }

    public func user(forSession secret: String) async throws -> User? {
        let hash = Self.hash(secret)
        guard let found = try await store.sessionUser(tokenHash: hash, now: clock.now) else { return nil }
        if isStale(found.lastSeenAt) { try await store.touchSession(tokenHash: hash, at: clock.now) }
        return found.user
    }

    /// The CSRF token of a session: an HMAC of its secret with the server's key, so that only a
    /// page served to that session knows it (a cookie planted from elsewhere is worth nothing).
    public func csrfToken(forSession secret: String) async throws -> String {
        let key = SymmetricKey(data: try await secrets.csrfKey())
        return Data(HMAC<SHA256>.authenticationCode(for: Data(secret.utf8), using: key)).base64URL
    }

    // MARK: - API tokens

    /// A new token: the secret is returned once and never stored. `lifetime` nil: it never
    /// expires. Made with another token (`by`), it may neither outlive it nor do more than it.
    public func createAPIToken(for user: User, name: String, scope: TokenScope = .write, lifetime: TimeInterval? = nil,
                               by maker: TokenGrant? = nil) async throws -> (info: APITokenInfo, secret: String) {
        let name = try UserText.name(name, Phrase("A token's name"))
        guard !name.isEmpty, UserText.fits(name, maximumLength: 60) else {
            throw TallyError.invalid("A token needs a name of 1 to 60 characters, such as \"laptop\".")
        }
        if let lifetime, !(Self.tokenLifetime.contains(lifetime)) {
            throw TallyError.invalid("A token can expire after 1 to 3650 days.")
        }
        let now = clock.now
        let expiresAt = lifetime.map(now.addingTimeInterval)
        if let maker {
            guard maker.scope.covers(scope) else {
                throw TallyError(.forbidden, Self.cannotMake(scope, with: maker.scope))
            }
            if let end = maker.expiresAt, expiresAt.map({ $0 > end }) ?? true {
                let days = Int(end.timeIntervalSince(now) / 86_400)
                throw TallyError.invalid(Phrase(one: "A token made with a token cannot outlive it: this one ends in \(days) day, so ask for at most that.",
                                                other: "A token made with a token cannot outlive it: this one ends in \(days) days, so ask for at most that."))
            }
        }
        let info = APITokenInfo(id: UUID(), name: name, scope: scope, createdAt: now, expiresAt: expiresAt)
        let secret = "tally_" + Self.newSecret()
        try await store.createAPIToken(info, tokenHash: Self.hash(secret), of: user.id)
        return (info, secret)
    }

    static let tokenLifetime: ClosedRange<TimeInterval> = 86_400...(3650 * 86_400)

    /// The refusal of a token of scope `maker` asked to make a token of `scope`, which it does not
    /// cover (a write token covers every scope, so it is never refused).
    static func cannotMake(_ scope: TokenScope, with maker: TokenScope) -> Phrase {
        switch (maker, scope) {
        case (.read, .drinks): Phrase("This token may read only, so it cannot make a drinks token.")
        case (.read, _): Phrase("This token may read only, so it cannot make a write token.")
        case (.drinks, .read): Phrase("This token may drinks only, so it cannot make a read token.")
        case (.drinks, _), (.write, _): Phrase("This token may drinks only, so it cannot make a write token.")
        }
    }

    public func apiTokens(of user: User) async throws -> [APITokenInfo] {
        try await store.apiTokens(of: user.id)
    }

    public func revokeAPIToken(id: UUID, of user: User) async throws {
        try await store.revokeAPIToken(id: id, of: user.id, at: clock.now)
    }

    public func user(forAPIToken secret: String) async throws -> User? {
        try await holder(ofAPIToken: secret)?.user
    }

    /// The holder of a token that works, and what the token lets them do.
    public func holder(ofAPIToken secret: String) async throws -> (user: User, grant: TokenGrant)? {
        let hash = Self.hash(secret)
        guard let found = try await store.tokenUser(tokenHash: hash, now: clock.now), let grant = found.token else { return nil }
        if isStale(found.lastSeenAt) { try await store.touchAPIToken(tokenHash: hash, at: clock.now) }
        return (found.user, grant)
    }

    /// Revokes every token of the user that still works: returns how many.
    public func revokeAPITokens(of user: User) async throws -> Int {
        try await store.revokeAPITokens(of: user.id, at: clock.now)
    }

    /// "Last seen" is kept to five minutes, so that reading who asks is not a write each time.
    private func isStale(_ lastSeen: Date?) -> Bool {
        lastSeen.map { clock.now.timeIntervalSince($0) > 300 } ?? true
    }

    // MARK: - The admin's powers

    /// Who may sign up now: anyone while the server has no account (the first becomes its admin).
    public func signUpMode() async throws -> SignUpMode {
        try await awaitsFirstAccount() ? .open : try await store.signUpMode()
    }

    /// True while the server has no account: its first visitor signs up and becomes the admin.
    public func awaitsFirstAccount() async throws -> Bool { try await store.accountCount() == 0 }

    public func setDisabled(_ name: String, _ disabled: Bool) async throws -> Account {
        guard let account = try await store.account(named: name) else {
            throw TallyError.notFound("There is no account named \(name).")
        }
        if disabled, account.isAdmin {
            throw TallyError.conflict("\(name) is the server's admin and cannot be disabled.")
        }
        try await store.setDisabled(account.user.id, at: disabled ? clock.now : nil)
        return try await store.account(named: name) ?? account
    }

    /// A server invite for sign-up: the code is returned once and stored hashed.
    public func createSignUpInvite(days: Int, uses: Int) async throws -> (info: SignUpInviteInfo, code: String) {
        guard (1...90).contains(days) else { throw TallyError.invalid("An invite can last 1 to 90 days.") }
        guard (1...100).contains(uses) else { throw TallyError.invalid("An invite can be used 1 to 100 times.") }
        let code = Self.newSecret()
        let now = clock.now
        let info = try await store.createSignUpInvite(codeHash: Self.hash(code), createdAt: now,
                                                      expiresAt: now.addingTimeInterval(Double(days) * 86_400), uses: uses)
        return (info, code)
    }

    // MARK: - Secrets

    static func hash(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 256 random bits, base64url without padding: safe in cookies, headers and URLs.
    static func newSecret() -> String {
        Data(randomBytes(32)).base64URL
    }
}
