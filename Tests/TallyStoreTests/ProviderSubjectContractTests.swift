import Foundation
import TallyCore
@testable import TallyRepositories
@testable import TallyServices
import Testing

/// Accounts linked to an OpenID provider's subjects, in every store: one account per subject,
/// one subject per account and provider; an account made by a provider's first sign-in is
/// linked in the same transaction, or not made at all.
@Suite("Provider subject repository contract")
struct ProviderSubjectContractTests {
    static let home = ProviderSubject(issuer: "https://id.example.com", subject: "24400320")
    static let other = ProviderSubject(issuer: "https://id.example.com", subject: "99")
    static let work = ProviderSubject(issuer: "https://login.work.example", subject: "24400320")

    func createLinked(_ f: Fixture, _ name: String, _ subject: ProviderSubject,
                      by creation: AccountCreation = .signUp(inviteHash: nil)) async throws -> Account {
        try await f.store.createAccount(User(name: name, createdAt: f.clock.now), passwordHash: "unusable",
                                        settings: HydrationSettings(timeZone: "Europe/Berlin"), kinds: DrinkFactorSet.builtInKinds(),
                                        by: creation, linkedTo: subject, now: f.clock.now)
    }

    @Test("A subject finds its account, and only its issuer's; a second account cannot take it", arguments: StoreKind.allCases)
    func linkedBySubject(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await createLinked(f, "ada-linked", Self.home)
        #expect(ada.isAdmin, "the first account is the admin, however it came")
        #expect(try await f.store.account(linkedTo: Self.home) == ada)
        #expect(try await f.store.account(linkedTo: Self.work) == nil, "the same sub at another provider is someone else")
        #expect(try await f.store.account(linkedTo: Self.other) == nil)
        #expect(try await f.store.providerLinks(of: ada.user.id).map(\.issuer) == [Self.home.issuer])

        try await f.store.setSignUpMode(.open)
        await #expect(throws: ProviderSubject.linkedElsewhere) { _ = try await createLinked(f, "bob", Self.home) }
        #expect(try await f.store.user(named: "bob") == nil, "a refused link makes no account")

        let carol = try await f.account("carol")
        await #expect(throws: ProviderSubject.linkedElsewhere) { try await f.store.link(carol.user.id, to: Self.home, at: f.clock.now) }
        await #expect(throws: ProviderSubject.alreadyLinked) { try await f.store.link(ada.user.id, to: Self.other, at: f.clock.now) }
        try await f.store.link(ada.user.id, to: Self.home, at: f.clock.now) // again: nothing changes
        try await f.store.link(ada.user.id, to: Self.work, at: f.clock.now)
        #expect(try await f.store.providerLinks(of: ada.user.id).count == 2)
    }

    @Test("Unlinking frees the subject for another account; a refused sign-up links nothing", arguments: StoreKind.allCases)
    func unlinkAndRefusal(_ kind: StoreKind) async throws {
        let f = try await Fixture(kind)
        let ada = try await f.account("ada-admin")
        let carol = try await f.account("carol")
        try await f.store.link(carol.user.id, to: Self.home, at: f.clock.now)
        try await f.store.unlink(carol.user.id, issuer: Self.home.issuer)
        #expect(try await f.store.account(linkedTo: Self.home) == nil)
        #expect(try await f.store.providerLinks(of: carol.user.id).isEmpty)
        try await f.store.link(ada.user.id, to: Self.home, at: f.clock.now)
        #expect(try await f.store.account(linkedTo: Self.home)?.user.id == ada.user.id)

        try await f.store.setSignUpMode(.closed)
        await #expect(throws: TallyError.self) { _ = try await createLinked(f, "dave", Self.other) }
        #expect(try await f.store.user(named: "dave") == nil)
        #expect(try await f.store.account(linkedTo: Self.other) == nil, "nothing of a refused sign-up stays")
    }
}
