import Foundation
import TallyCore

/// A person as their OpenID provider knows them: the provider (its issuer URL) and the `sub` it
/// gives them, which never changes and is never reused. An account is found by this pair only,
/// never by a name or an e-mail address the provider sends along.
public struct ProviderSubject: Hashable, Sendable {
    public var issuer: String
    public var subject: String

    public init(issuer: String, subject: String) {
        self.issuer = issuer
        self.subject = subject
    }
}

/// An account's link to a provider, as the account page lists it.
public struct ProviderLink: Equatable, Sendable {
    public var issuer: String
    public var linkedAt: Date

    public init(issuer: String, linkedAt: Date) {
        self.issuer = issuer
        self.linkedAt = linkedAt
    }
}

/// Accounts linked to an OpenID provider's subjects: one subject per account and provider, one
/// account per subject.
public protocol ProviderIdentityRepository: Sendable {
    /// Creates an account through sign-up, as `createAccount` does (the first is the admin; the
    /// mode and its invite apply), linked to `subject` in the same transaction.
    func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                       by creation: AccountCreation, linkedTo subject: ProviderSubject, now: Date) async throws -> Account
    /// The account linked to `subject`, whether enabled or not; nil when none is.
    func account(linkedTo subject: ProviderSubject) async throws -> Account?
    /// Links an account to `subject`: refused (conflict) when the subject is another account's,
    /// or the account has a subject of this provider already.
    func link(_ user: UUID, to subject: ProviderSubject, at: Date) async throws
    /// Removes the account's link to the provider `issuer`, if it has one.
    func unlink(_ user: UUID, issuer: String) async throws
    func providerLinks(of user: UUID) async throws -> [ProviderLink]
}

extension ProviderSubject {
    /// The refusal of a link to a subject that another account holds.
    package static let linkedElsewhere = TallyError.conflict(
        "This sign-in of your provider belongs to another account here: sign in to that one, or unlink it there first.")

    package static let alreadyLinked = TallyError.conflict(
        "This account is linked to another sign-in of this provider: unlink it first.")
}
