import Foundation
import GRDB
import TallyCore

extension SQLiteStore: AccountRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings,
                              kinds: [DrinkKind]) async throws -> Account {
        try await write { db in
            var record = UserRecord(user, settings: settings)
            record.passwordHash = passwordHash
            // The first account of a fresh server becomes its admin (A1).
            record.isAdmin = try UserRecord.filter(sql: "passwordHash IS NOT NULL").fetchCount(db) == 0
            try Self.insertUser(record, kinds: kinds, db)
            return record.account!
        }
    }

    public func setPassword(of user: UUID, to passwordHash: String) async throws {
        try await write { db in
            var record = try Self.userRecord(user, db)
            let firstAccount = try UserRecord.filter(sql: "passwordHash IS NOT NULL").fetchCount(db) == 0
            record.isAdmin = record.isAdmin || firstAccount
            record.passwordHash = passwordHash
            try record.update(db)
        }
    }

    public func account(named name: String) async throws -> Account? {
        try await read { db in try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db)?.account }
    }

    public func accounts() async throws -> [Account] {
        try await read { db in
            try UserRecord.filter(sql: "passwordHash IS NOT NULL").order(sql: "name COLLATE NOCASE").fetchAll(db).compactMap(\.account)
        }
    }

    public func recordFailedSignIn(of user: UUID, at: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE user SET failedSignIns = failedSignIns + 1, lastFailedSignInAt = ? WHERE id = ?",
                           arguments: [at, user])
        }
    }

    public func resetFailedSignIns(of user: UUID) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE user SET failedSignIns = 0, lastFailedSignInAt = NULL WHERE id = ? AND failedSignIns > 0",
                           arguments: [user])
        }
    }

    public func createSession(tokenHash: Data, of user: UUID, createdAt: Date, expiresAt: Date) async throws {
        try await write { db in
            // Expired sessions go whenever a new one comes, so the table does not grow forever.
            try db.execute(sql: "DELETE FROM session WHERE expiresAt < ?", arguments: [createdAt])
            try db.execute(sql: "INSERT INTO session (tokenHash, userId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                           arguments: [tokenHash, user, createdAt, expiresAt])
        }
    }

    public func sessionUser(tokenHash: Data, now: Date) async throws -> User? {
        try await read { db in
            try UserRecord.fetchOne(db.cachedStatement(sql: """
                SELECT user.* FROM session JOIN user ON user.id = session.userId
                WHERE session.tokenHash = ? AND session.expiresAt > ?
                """), arguments: [tokenHash, now])?.user
        }
    }

    public func deleteSession(tokenHash: Data) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [tokenHash]) }
    }

    public func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO apiToken (id, userId, name, tokenHash, createdAt) VALUES (?, ?, ?, ?, ?)",
                           arguments: [token.id, user, token.name, tokenHash, token.createdAt])
        }
    }

    public func apiTokens(of user: UUID) async throws -> [APITokenInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, createdAt, revokedAt FROM apiToken WHERE userId = ? ORDER BY createdAt",
                             arguments: [user])
                .map { APITokenInfo(id: $0["id"], name: $0["name"], createdAt: $0["createdAt"], revokedAt: $0["revokedAt"]) }
        }
    }

    public func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE apiToken SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND userId = ?",
                           arguments: [at, id, user])
            if db.changesCount == 0 { throw TallyError.notFound("There is no token with the id \(id).") }
        }
    }

    public func tokenUser(tokenHash: Data) async throws -> User? {
        try await read { db in
            try UserRecord.fetchOne(db.cachedStatement(sql: """
                SELECT user.* FROM apiToken JOIN user ON user.id = apiToken.userId
                WHERE apiToken.tokenHash = ? AND apiToken.revokedAt IS NULL
                """), arguments: [tokenHash])?.user
        }
    }
}
