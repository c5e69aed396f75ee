import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Sessions and API tokens: what a request's credential is worth, read on every request.
extension PostgresStore {
    public func createSession(tokenHash: Data, of user: UUID, device: String, createdAt: Date, expiresAt: Date,
                              replacing: Data?) async throws {
        // The user's lock orders it with `setDisabled`, which ends the user's sessions.
        try await write(locking: .user(user)) { [self] connection in
            // Expired sessions go whenever a new one comes, so the table does not grow forever.
            try await connection.run("DELETE FROM session WHERE expiresAt < \(createdAt) OR tokenHash = \(replacing)", logger: logger)
            try await connection.run("""
                INSERT INTO session (tokenHash, userId, createdAt, expiresAt, lastSeenAt, device)
                VALUES (\(tokenHash), \(user), \(createdAt), \(expiresAt), \(createdAt), \(device))
                """, logger: logger)
        }
    }

    public func sessionUser(tokenHash: Data, now: Date) async throws -> Credentialed? {
        try await connection { [self] connection in
            try await connection.all(SessionUserStatement(tokenHash: tokenHash, now: now), logger: logger).first
        }
    }

    public func touchSession(tokenHash: Data, at: Date) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("UPDATE session SET lastSeenAt = \(at) WHERE tokenHash = \(tokenHash)", logger: logger)
        }
    }

    public func deleteSession(tokenHash: Data) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("DELETE FROM session WHERE tokenHash = \(tokenHash)", logger: logger)
        }
    }

    public func sessions(of user: UUID, now: Date) async throws -> [SessionInfo] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT tokenHash, device, createdAt, lastSeenAt, expiresAt FROM session
                WHERE userId = \(user) AND expiresAt > \(now) ORDER BY lastSeenAt DESC NULLS LAST, tokenHash
                """, logger: logger).map { row in
                let (tokenHash, device, createdAt, lastSeenAt, expiresAt) = try row.decode((Data, String?, Date, Date?, Date).self)
                return SessionInfo(id: SessionInfo.id(of: tokenHash), device: device ?? "a browser", createdAt: createdAt,
                                   lastSeenAt: lastSeenAt, expiresAt: expiresAt)
            }
        }
    }

    @discardableResult
    public func deleteSessions(of user: UUID, except: Data?) async throws -> Int {
        try await write(locking: nil) { [self] connection in
            try await connection.row("""
                WITH ended AS (DELETE FROM session WHERE userId = \(user) AND tokenHash IS DISTINCT FROM \(except) RETURNING 1)
                SELECT count(*) FROM ended
                """, logger: logger)?.decode(Int.self) ?? 0
        }
    }

    public func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("""
                INSERT INTO apiToken (id, userId, name, scope, tokenHash, createdAt, expiresAt)
                VALUES (\(token.id), \(user), \(token.name), \(token.scope.rawValue), \(tokenHash), \(token.createdAt), \(token.expiresAt))
                """, logger: logger)
        }
    }

    public func apiTokens(of user: UUID) async throws -> [APITokenInfo] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT id, name, scope, createdAt, revokedAt, expiresAt, lastUsedAt FROM apiToken WHERE userId = \(user) ORDER BY createdAt, id
                """, logger: logger).map { row in
                let (id, name, scope, createdAt, revokedAt, expiresAt, lastUsedAt)
                    = try row.decode((UUID, String, String, Date, Date?, Date?, Date?).self)
                return APITokenInfo(id: id, name: name, scope: TokenScope(rawValue: scope) ?? .read, createdAt: createdAt,
                                    revokedAt: revokedAt, expiresAt: expiresAt, lastUsedAt: lastUsedAt)
            }
        }
    }

    public func revokeAPITokens(of user: UUID, at: Date) async throws -> Int {
        try await write(locking: nil) { [self] connection in
            try await connection.rows("""
                UPDATE apiToken SET revokedAt = \(at)
                WHERE userId = \(user) AND revokedAt IS NULL AND (expiresAt IS NULL OR expiresAt > \(at)) RETURNING 1
                """, logger: logger).count
        }
    }

    public func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws {
        try await write(locking: nil) { [self] connection in
            // A token revoked before keeps the date it was revoked.
            let revoked = try await connection.row("""
                UPDATE apiToken SET revokedAt = coalesce(revokedAt, \(at)) WHERE id = \(id) AND userId = \(user) RETURNING 1
                """, logger: logger)
            guard revoked != nil else { throw StoreRefusal.noToken(id) }
        }
    }

    public func tokenUser(tokenHash: Data, now: Date) async throws -> Credentialed? {
        try await connection { [self] connection in
            try await connection.all(TokenUserStatement(tokenHash: tokenHash, now: now), logger: logger).first
        }
    }

    public func admit(_ admission: TokenAdmission) async throws {
        try await pool.withConnection { [self] connection in try await check(admission, connection) }
    }

    public func touchAPIToken(tokenHash: Data, at: Date) async throws {
        try await write(locking: nil) { [self] connection in
            try await connection.run("UPDATE apiToken SET lastUsedAt = \(at) WHERE tokenHash = \(tokenHash)", logger: logger)
        }
    }

    /// The user's columns, then when the credential was last seen.
    static func credentialed(_ row: PostgresRow) throws -> Credentialed {
        let (id, name, createdAt, language, lastSeenAt) = try row.decode((UUID, String, Date, String?, Date?).self)
        return Credentialed(user: User(id: id, name: name, createdAt: createdAt, language: language), lastSeenAt: lastSeenAt)
    }
}
