import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: ProviderIdentityRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                              by creation: AccountCreation, linkedTo subject: ProviderSubject, now: Date) async throws -> Account {
        try await insertAccount(user, passwordHash: passwordHash, settings: settings, kinds: kinds, by: creation, linkedTo: subject, now: now)
    }

    public func account(linkedTo subject: ProviderSubject) async throws -> Account? {
        try await read { db in
            try UserRecord.fetchOne(db, sql: """
                SELECT user.* FROM accountIdentity JOIN user ON user.id = accountIdentity.userId
                WHERE issuer = ? AND subject = ? AND user.passwordHash IS NOT NULL
                """, arguments: [subject.issuer, subject.subject])?.account
        }
    }

    public func link(_ user: UUID, to subject: ProviderSubject, at: Date) async throws {
        try await write { db in
            try Self.requireUser(user, db)
            try Self.link(user, to: subject, at: at, db)
        }
    }

    static func link(_ user: UUID, to subject: ProviderSubject, at: Date, _ db: Database) throws {
        let holder = try UUID.fetchOne(db, sql: "SELECT userId FROM accountIdentity WHERE issuer = ? AND subject = ?",
                                       arguments: [subject.issuer, subject.subject])
        if let holder {
            guard holder == user else { throw ProviderSubject.linkedElsewhere }
            return
        }
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM accountIdentity WHERE userId = ? AND issuer = ?",
                             arguments: [user, subject.issuer]) ?? false {
            throw ProviderSubject.alreadyLinked
        }
        try db.execute(sql: "INSERT INTO accountIdentity (issuer, subject, userId, linkedAt) VALUES (?, ?, ?, ?)",
                       arguments: [subject.issuer, subject.subject, user, at])
    }

    public func unlink(_ user: UUID, issuer: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM accountIdentity WHERE userId = ? AND issuer = ?", arguments: [user, issuer])
        }
    }

    public func providerLinks(of user: UUID) async throws -> [ProviderLink] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT issuer, linkedAt FROM accountIdentity WHERE userId = ? ORDER BY linkedAt, issuer",
                             arguments: [user]).map { ProviderLink(issuer: $0["issuer"], linkedAt: $0["linkedAt"]) }
        }
    }
}
