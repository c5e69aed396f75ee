import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: ProviderIdentityRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                              by creation: AccountCreation, linkedTo subject: ProviderSubject, now: Date) async throws -> Account {
        try await insertAccount(user, passwordHash: passwordHash, settings: settings, kinds: kinds, by: creation, linkedTo: subject, now: now)
    }

    public func account(linkedTo subject: ProviderSubject) async throws -> Account? {
        try await connection { [self] connection in
            try await connection.row("""
                SELECT \(unescaped: Self.accountColumns) FROM accountIdentity JOIN users ON users.id = accountIdentity.userId
                WHERE issuer = \(subject.issuer) AND subject = \(subject.subject) AND users.passwordHash IS NOT NULL
                """, logger: logger).map(Self.account)
        }
    }

    public func link(_ user: UUID, to subject: ProviderSubject, at: Date) async throws {
        try await write(locking: .server) { [self] connection in
            try await requireUser(user, connection)
            try await link(user, to: subject, at: at, connection)
        }
    }

    /// Links in the caller's transaction, which holds the server's write lock: two sign-ins of
    /// one new subject cannot both link it.
    func link(_ user: UUID, to subject: ProviderSubject, at: Date, _ connection: PostgresConnection) async throws {
        if let holder = try await connection.row("""
            SELECT userId FROM accountIdentity WHERE issuer = \(subject.issuer) AND subject = \(subject.subject)
            """, logger: logger) {
            guard try holder.decode(UUID.self) == user else { throw ProviderSubject.linkedElsewhere }
            return
        }
        if try await connection.row("SELECT 1 FROM accountIdentity WHERE userId = \(user) AND issuer = \(subject.issuer)",
                                    logger: logger) != nil {
            throw ProviderSubject.alreadyLinked
        }
        try await connection.run("""
            INSERT INTO accountIdentity (issuer, subject, userId, linkedAt) VALUES (\(subject.issuer), \(subject.subject), \(user), \(at))
            """, logger: logger)
    }

    public func unlink(_ user: UUID, issuer: String) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("DELETE FROM accountIdentity WHERE userId = \(user) AND issuer = \(issuer)", logger: logger)
        }
    }

    public func providerLinks(of user: UUID) async throws -> [ProviderLink] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT issuer, linkedAt FROM accountIdentity WHERE userId = \(user) ORDER BY linkedAt, issuer
                """, logger: logger).map {
                let (issuer, linkedAt) = try $0.decode((String, Date).self)
                return ProviderLink(issuer: issuer, linkedAt: linkedAt)
            }
        }
    }
}
