import Foundation
import TallyCore
import TallyStore

// Not yet on PostgreSQL: each is replaced by its real implementation.

extension PostgresStore: AccountRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind], by creation: AccountCreation, now: Date) async throws -> Account { fatalError("not yet") }
    public func setPassword(of user: UUID, to passwordHash: String) async throws { fatalError("not yet") }
    public func account(named name: String) async throws -> Account? { fatalError("not yet") }
    public func accounts() async throws -> [Account] { fatalError("not yet") }
    public func setDisabled(_ user: UUID, at: Date?) async throws { fatalError("not yet") }
    public func signUpMode() async throws -> SignUpMode { fatalError("not yet") }
    public func setSignUpMode(_ mode: SignUpMode) async throws { fatalError("not yet") }
    public func createSignUpInvite(codeHash: Data, createdAt: Date, expiresAt: Date, uses: Int) async throws -> SignUpInviteInfo { fatalError("not yet") }
    public func signUpInvites(now: Date) async throws -> [SignUpInviteInfo] { fatalError("not yet") }
    public func deleteSignUpInvite(id: String) async throws { fatalError("not yet") }
    public func reserveSignInAttempt(_ keys: [ThrottleKey], now: Date) async throws { fatalError("not yet") }
    public func signInSucceeded(account: String, others: [String], at: Date) async throws { fatalError("not yet") }
    public func createSession(tokenHash: Data, of user: UUID, device: String, createdAt: Date, expiresAt: Date, replacing: Data?) async throws { fatalError("not yet") }
    public func sessionUser(tokenHash: Data, now: Date) async throws -> Credentialed? { fatalError("not yet") }
    public func touchSession(tokenHash: Data, at: Date) async throws { fatalError("not yet") }
    public func deleteSession(tokenHash: Data) async throws { fatalError("not yet") }
    public func sessions(of user: UUID, now: Date) async throws -> [SessionInfo] { fatalError("not yet") }
    public func deleteSessions(of user: UUID, except: Data?) async throws -> Int { fatalError("not yet") }
    public func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws { fatalError("not yet") }
    public func apiTokens(of user: UUID) async throws -> [APITokenInfo] { fatalError("not yet") }
    public func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws { fatalError("not yet") }
    public func tokenUser(tokenHash: Data, now: Date) async throws -> Credentialed? { fatalError("not yet") }
    public func touchAPIToken(tokenHash: Data, at: Date) async throws { fatalError("not yet") }
}

extension PostgresStore: PushRepository {
    public func serverKey(named name: String, orMake make: @escaping @Sendable () -> Data) async throws -> Data { fatalError("not yet") }
    public func savePushSubscription(_ subscription: PushSubscription, of user: UUID, at: Date, limit: Int) async throws { fatalError("not yet") }
    public func deletePushSubscription(endpoint: String, of user: UUID?) async throws { fatalError("not yet") }
    public func pushSubscriptions(of user: UUID) async throws -> [PushSubscription] { fatalError("not yet") }
    public func claimReminder(key: String, at: Date) async throws -> Bool { fatalError("not yet") }
    public func forgetRemindersSent(before date: Date) async throws -> Int { fatalError("not yet") }
    public func reminderRecipients() async throws -> [ReminderRecipient] { fatalError("not yet") }
    public func lastDrink(of user: UUID) async throws -> Date? { fatalError("not yet") }
}
