import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: AccountRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                              by creation: AccountCreation, now: Date) async throws -> Account {
        try await insertAccount(user, passwordHash: passwordHash, settings: settings, kinds: kinds, by: creation, linkedTo: nil, now: now)
    }

    /// An account as sign-up makes it, linked to a provider's subject when it comes with one.
    func insertAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                       by creation: AccountCreation, linkedTo subject: ProviderSubject?, now: Date) async throws -> Account {
        try await write { db in
            var record = UserRecord(user)
            record.passwordHash = passwordHash
            // The first account of a fresh server becomes its admin (A1), however it came.
            let first = try Self.accountCount(db) == 0
            record.isAdmin = first
            if !first {
                switch creation {
                case .signUp(let inviteHash): try Self.admitSignUp(inviteHash: inviteHash, now: now, db)
                case .ledgerInvite(let codeHash, _): try Self.admitLedgerInvite(codeHash: codeHash, now: now, db)
                case .byAdmin: break
                }
            }
            try Self.insertUser(record, settings: settings, kinds: kinds, db)
            if let subject { try Self.link(record.id, to: subject, at: now, db) }
            if case .ledgerInvite(let codeHash, let chooser?) = creation {
                _ = try Self.join(codeHash: codeHash, user: record.id, at: now, chooser, db)
            }
            return record.account!
        }
    }

    /// Lets a sign-up through the server's mode, using up one use of its invite.
    private static func admitSignUp(inviteHash: Data?, now: Date, _ db: Database) throws {
        guard let invite = try signUpMode(db).inviteToSpend(inviteHash) else { return }
        try db.execute(sql: "UPDATE signUpInvite SET usesLeft = usesLeft - 1 WHERE codeHash = ? AND usesLeft > 0 AND expiresAt > ?",
                       arguments: [invite, now])
        guard db.changesCount == 1 else { throw SignUpMode.inviteUsedUp }
    }

    /// Lets a sign-up through a ledger's valid invite, unless sign-up is closed; the invite's use
    /// is spent when the new account joins.
    private static func admitLedgerInvite(codeHash: Data, now: Date, _ db: Database) throws {
        try signUpMode(db).admitLedgerInvite()
        let valid = try Bool.fetchOne(db, sql: "SELECT 1 FROM ledgerInvite WHERE codeHash = ? AND expiresAt > ? AND usesLeft > 0",
                                      arguments: [codeHash, now]) ?? false
        guard valid else { throw SignUpMode.ledgerInviteInvalid }
    }

    public func setPassword(of user: UUID, to passwordHash: String) async throws {
        try await write { db in
            var record = try Self.userRecord(user, db)
            let firstAccount = try Self.accountCount(db) == 0
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

    public func accountCount() async throws -> Int {
        try await read { db in try Self.accountCount(db) }
    }

    /// The users with a password, within a transaction.
    private static func accountCount(_ db: Database) throws -> Int {
        try UserRecord.filter(sql: "passwordHash IS NOT NULL").fetchCount(db)
    }

    public func setDisabled(_ user: UUID, at: Date?) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE user SET disabledAt = ? WHERE id = ? AND passwordHash IS NOT NULL", arguments: [at, user])
            guard db.changesCount == 1 else { throw StoreRefusal.noAccount(user) }
            if at != nil { try db.execute(sql: "DELETE FROM session WHERE userId = ?", arguments: [user]) }
        }
    }

    // MARK: - Sign-up

    private static let signUpModeName = "signUpMode"

    private static func signUpMode(_ db: Database) throws -> SignUpMode {
        try String.fetchOne(db, sql: "SELECT value FROM serverSetting WHERE name = ?", arguments: [signUpModeName])
            .flatMap(SignUpMode.init(rawValue:)) ?? .standard
    }

    public func signUpMode() async throws -> SignUpMode {
        try await read { db in try Self.signUpMode(db) }
    }

    public func setSignUpMode(_ mode: SignUpMode) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO serverSetting (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                           arguments: [Self.signUpModeName, mode.rawValue])
        }
    }

    public func createSignUpInvite(codeHash: Data, createdAt: Date, expiresAt: Date, uses: Int) async throws -> SignUpInviteInfo {
        try await write { db in
            // Spent and expired invites go whenever a new one comes.
            try db.execute(sql: "DELETE FROM signUpInvite WHERE usesLeft <= 0 OR expiresAt <= ?", arguments: [createdAt])
            try db.execute(sql: "INSERT INTO signUpInvite (codeHash, createdAt, expiresAt, usesLeft) VALUES (?, ?, ?, ?)",
                           arguments: [codeHash, createdAt, expiresAt, uses])
            return SignUpInviteInfo(id: SessionInfo.id(of: codeHash), createdAt: createdAt, expiresAt: expiresAt, usesLeft: uses)
        }
    }

    public func signUpInvites(now: Date) async throws -> [SignUpInviteInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM signUpInvite WHERE usesLeft > 0 AND expiresAt > ? ORDER BY createdAt", arguments: [now])
                .map { SignUpInviteInfo(id: SessionInfo.id(of: $0["codeHash"]), createdAt: $0["createdAt"],
                                        expiresAt: $0["expiresAt"], usesLeft: $0["usesLeft"]) }
        }
    }

    public func deleteSignUpInvite(id: String) async throws {
        try await write { db in
            let hashes = try Data.fetchAll(db, sql: "SELECT codeHash FROM signUpInvite").filter { SessionInfo.id(of: $0) == id }
            guard let hash = hashes.first else { throw StoreRefusal.noInvite(id) }
            try db.execute(sql: "DELETE FROM signUpInvite WHERE codeHash = ?", arguments: [hash])
        }
    }

    // MARK: - The sign-in throttle

    public func reserveSignInAttempt(_ keys: [ThrottleKey], now: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM signInAttempt WHERE at < ? AND substr(key, 1, ?) <> ?",
                           arguments: [now.addingTimeInterval(-SignInThrottle.memory), SignInThrottle.trustPrefix.count, SignInThrottle.trustPrefix])
            try db.execute(sql: "DELETE FROM signInAttempt WHERE at < ? AND substr(key, 1, ?) = ?",
                           arguments: [now.addingTimeInterval(-SignInThrottle.trust), SignInThrottle.trustPrefix.count, SignInThrottle.trustPrefix])
            for key in keys {
                let row = try Row.fetchOne(db, sql: "SELECT count(*) AS attempts, max(at) AS last FROM signInAttempt WHERE key = ?",
                                           arguments: [key.key])
                let attempts: Int = row?["attempts"] ?? 0
                if let wait = SignInThrottle.wait(attempts: attempts, lastAttempt: row?["last"], now: now, free: key.freeAttempts) {
                    throw signInThrottled(wait)
                }
            }
            for key in keys {
                try db.execute(sql: "INSERT INTO signInAttempt (key, at) VALUES (?, ?)", arguments: [key.key, now])
            }
        }
    }

    public func signInSucceeded(forgetting: [String], releasing: [String], trusting: String?, at: Date) async throws {
        try await write { db in
            for key in forgetting + (trusting.map { [$0] } ?? []) {
                try db.execute(sql: "DELETE FROM signInAttempt WHERE key = ?", arguments: [key])
            }
            for key in releasing {
                try db.execute(sql: "DELETE FROM signInAttempt WHERE id = (SELECT max(id) FROM signInAttempt WHERE key = ? AND at = ?)",
                               arguments: [key, at])
            }
            if let trusting { try db.execute(sql: "INSERT INTO signInAttempt (key, at) VALUES (?, ?)", arguments: [trusting, at]) }
        }
    }

    public func isTrusted(_ key: String, now: Date) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM signInAttempt WHERE key = ? AND at >= ?)",
                              arguments: [key, now.addingTimeInterval(-SignInThrottle.trust)]) ?? false
        }
    }

    public func clearSignInAttempts(account name: String) async throws {
        let pairs = SignInThrottle.pairKey(name, "")
        try await write { db in
            try db.execute(sql: "DELETE FROM signInAttempt WHERE key = ? OR substr(key, 1, ?) = ?",
                           arguments: [SignInThrottle.accountKey(name), pairs.count, pairs])
        }
    }

    // MARK: - Sessions

    public func createSession(tokenHash: Data, of user: UUID, device: String, createdAt: Date, expiresAt: Date,
                              replacing: Data?) async throws {
        try await write { db in
            // Expired sessions go whenever a new one comes, so the table does not grow forever.
            try db.execute(sql: "DELETE FROM session WHERE expiresAt < ? OR tokenHash = ?", arguments: [createdAt, replacing])
            try db.execute(sql: """
                INSERT INTO session (tokenHash, userId, createdAt, expiresAt, lastSeenAt, device) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [tokenHash, user, createdAt, expiresAt, createdAt, device])
        }
    }

    public func sessionUser(tokenHash: Data, now: Date) async throws -> Credentialed? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(User.columns), session.lastSeenAt AS seen FROM session JOIN user ON user.id = session.userId
                WHERE session.tokenHash = ? AND session.expiresAt > ? AND user.disabledAt IS NULL
                """), arguments: [tokenHash, now])
                .map { Credentialed(user: User(row: $0), lastSeenAt: $0["seen"]) }
        }
    }

    public func touchSession(tokenHash: Data, at: Date) async throws {
        try await write { db in try db.execute(sql: "UPDATE session SET lastSeenAt = ? WHERE tokenHash = ?", arguments: [at, tokenHash]) }
    }

    public func deleteSession(tokenHash: Data) async throws {
        try await write { db in try db.execute(sql: "DELETE FROM session WHERE tokenHash = ?", arguments: [tokenHash]) }
    }

    public func sessions(of user: UUID, now: Date) async throws -> [SessionInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session WHERE userId = ? AND expiresAt > ? ORDER BY lastSeenAt DESC",
                             arguments: [user, now])
                .map { SessionInfo(id: SessionInfo.id(of: $0["tokenHash"]), device: $0["device"] ?? "a browser",
                                   createdAt: $0["createdAt"], lastSeenAt: $0["lastSeenAt"], expiresAt: $0["expiresAt"]) }
        }
    }

    public func deleteSessions(of user: UUID, except: Data?) async throws -> Int {
        try await write { db in
            try db.execute(sql: "DELETE FROM session WHERE userId = ? AND tokenHash IS NOT ?", arguments: [user, except])
            return db.changesCount
        }
    }

    // MARK: - API tokens

    public func createAPIToken(_ token: APITokenInfo, tokenHash: Data, of user: UUID) async throws {
        try await write { db in
            try db.execute(sql: "INSERT INTO apiToken (id, userId, name, scope, tokenHash, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [token.id, user, token.name, token.scope.rawValue, tokenHash, token.createdAt, token.expiresAt])
        }
    }

    public func apiTokens(of user: UUID) async throws -> [APITokenInfo] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM apiToken WHERE userId = ? ORDER BY createdAt", arguments: [user])
                .map { APITokenInfo(id: $0["id"], name: $0["name"], scope: TokenScope(rawValue: $0["scope"]) ?? .read, createdAt: $0["createdAt"],
                                    revokedAt: $0["revokedAt"], expiresAt: $0["expiresAt"], lastUsedAt: $0["lastUsedAt"]) }
        }
    }

    public func revokeAPITokens(of user: UUID, at: Date) async throws -> Int {
        try await write { db in
            try db.execute(sql: "UPDATE apiToken SET revokedAt = ? WHERE userId = ? AND revokedAt IS NULL AND (expiresAt IS NULL OR expiresAt > ?)",
                           arguments: [at, user, at])
            return db.changesCount
        }
    }

    public func revokeAPIToken(id: UUID, of user: UUID, at: Date) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE apiToken SET revokedAt = COALESCE(revokedAt, ?) WHERE id = ? AND userId = ?",
                           arguments: [at, id, user])
            if db.changesCount == 0 { throw StoreRefusal.noToken(id) }
        }
    }

    public func tokenUser(tokenHash: Data, now: Date) async throws -> Credentialed? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(User.columns), apiToken.lastUsedAt AS seen, apiToken.scope, apiToken.expiresAt AS tokenEnds
                FROM apiToken JOIN user ON user.id = apiToken.userId
                WHERE apiToken.tokenHash = ? AND apiToken.revokedAt IS NULL
                AND (apiToken.expiresAt IS NULL OR apiToken.expiresAt > ?) AND user.disabledAt IS NULL
                """), arguments: [tokenHash, now])
                .map { Credentialed(user: User(row: $0), lastSeenAt: $0["seen"],
                                    token: TokenGrant(scope: TokenScope(rawValue: $0["scope"]) ?? .read, expiresAt: $0["tokenEnds"])) }
        }
    }

    /// The request's known token checked again, in the transaction at hand (see TokenAdmission).
    static func check(_ admission: TokenAdmission?, _ db: Database) throws {
        guard let admission else { return }
        try admission.check {
            try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT 1 FROM apiToken JOIN user ON user.id = apiToken.userId
                WHERE apiToken.tokenHash = ? AND apiToken.userId = ? AND apiToken.revokedAt IS NULL
                AND (apiToken.expiresAt IS NULL OR apiToken.expiresAt > ?) AND user.disabledAt IS NULL
                """), arguments: [admission.tokenHash, admission.user, StoredDate.value(admission.now)]) ?? false
        }
    }

    public func admit(_ admission: TokenAdmission) async throws {
        try await TokenAdmission.$current.withValue(admission) { try await read { _ in } }
    }

    public func touchAPIToken(tokenHash: Data, at: Date) async throws {
        try await write { db in try db.execute(sql: "UPDATE apiToken SET lastUsedAt = ? WHERE tokenHash = ?", arguments: [at, tokenHash]) }
    }
}
