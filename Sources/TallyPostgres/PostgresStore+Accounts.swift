import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

// Accounts and sign-up. Whatever decides who is admin or who may sign up takes the `.server`
// lock first: two sign-ups on two instances then follow one another, and the second sees the first.
extension PostgresStore: AccountRepository {
    public func createAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                              by creation: AccountCreation, now: Date) async throws -> Account {
        try await insertAccount(user, passwordHash: passwordHash, settings: settings, kinds: kinds, by: creation, linkedTo: nil, now: now)
    }

    /// An account as sign-up makes it, linked to a provider's subject when it comes with one.
    func insertAccount(_ user: User, passwordHash: String, settings: HydrationSettings, kinds: [DrinkKind],
                       by creation: AccountCreation, linkedTo subject: ProviderSubject?, now: Date) async throws -> Account {
        try await write(locking: .server) { [self] connection in
            // The first account of a fresh server becomes its admin (A1), however it came.
            let first = try await noAccountYet(connection)
            if !first {
                switch creation {
                case .signUp(let inviteHash): try await admitSignUp(inviteHash: inviteHash, now: now, connection)
                case .ledgerInvite(let codeHash, _): try await admitLedgerInvite(codeHash: codeHash, now: now, connection)
                case .byAdmin: break
                }
            }
            try await insertUser(user, passwordHash: passwordHash, isAdmin: first, settings: settings, kinds: kinds, connection)
            if let subject { try await link(user.id, to: subject, at: now, connection) }
            if case .ledgerInvite(let codeHash, let chooser?) = creation {
                _ = try await join(codeHash: codeHash, user: user.id, at: now, chooser, connection)
            }
            return Account(user: user, passwordHash: passwordHash, isAdmin: first)
        }
    }

    /// Lets a sign-up through the server's mode, using up one use of its invite.
    private func admitSignUp(inviteHash: Data?, now: Date, _ connection: PostgresConnection) async throws {
        guard let invite = try await signUpMode(connection).inviteToSpend(inviteHash) else { return }
        // One statement that checks and spends: two sign-ups cannot both take the last use.
        let spent = try await connection.row("""
            UPDATE signUpInvite SET usesLeft = usesLeft - 1
            WHERE codeHash = \(invite) AND usesLeft > 0 AND expiresAt > \(now) RETURNING 1
            """, logger: logger)
        guard spent != nil else { throw SignUpMode.inviteUsedUp }
    }

    /// Lets a sign-up through a ledger's valid invite, unless sign-up is closed; the invite's use
    /// is spent when the new account joins.
    private func admitLedgerInvite(codeHash: Data, now: Date, _ connection: PostgresConnection) async throws {
        try await signUpMode(connection).admitLedgerInvite()
        let valid = try await connection.row("""
            SELECT 1 FROM ledgerInvite WHERE codeHash = \(codeHash) AND expiresAt > \(now) AND usesLeft > 0
            """, logger: logger)
        guard valid != nil else { throw SignUpMode.ledgerInviteInvalid }
    }

    /// Whether nobody can sign in yet: the next account is the server's first, and its admin.
    private func noAccountYet(_ connection: PostgresConnection) async throws -> Bool {
        try await connection.row("SELECT 1 FROM users WHERE passwordHash IS NOT NULL LIMIT 1", logger: logger) == nil
    }

    public func setPassword(of user: UUID, to passwordHash: String) async throws {
        try await write(locking: .server) { [self] connection in
            let first = try await noAccountYet(connection)
            let updated = try await connection.row("""
                UPDATE users SET passwordHash = \(passwordHash), isAdmin = isAdmin OR \(first) WHERE id = \(user) RETURNING 1
                """, logger: logger)
            guard updated != nil else { throw StoreRefusal.noSuchUser }
        }
    }

    public func account(named name: String) async throws -> Account? {
        try await connection { [self] connection in
            try await connection.row("""
                SELECT \(unescaped: Self.accountColumns) FROM users WHERE lower(name) = lower(\(name)) AND passwordHash IS NOT NULL
                """, logger: logger).map(Self.account)
        }
    }

    public func accounts() async throws -> [Account] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT \(unescaped: Self.accountColumns) FROM users WHERE passwordHash IS NOT NULL
                ORDER BY lower(name) COLLATE "C", name COLLATE "C"
                """, logger: logger).map(Self.account)
        }
    }

    public func accountCount() async throws -> Int {
        try await connection { [self] connection in
            try await connection.row("SELECT count(*)::int8 FROM users WHERE passwordHash IS NOT NULL", logger: logger)?.decode(Int.self) ?? 0
        }
    }

    public func setDisabled(_ user: UUID, at: Date?) async throws {
        try await write(locking: .user(user)) { [self] connection in
            let updated = try await connection.row("""
                UPDATE users SET disabledAt = \(at) WHERE id = \(user) AND passwordHash IS NOT NULL RETURNING 1
                """, logger: logger)
            guard updated != nil else { throw StoreRefusal.noAccount(user) }
            if at != nil { try await connection.run("DELETE FROM session WHERE userId = \(user)", logger: logger) }
        }
    }

    /// The user's columns, then the account's; read by `account(_:)`.
    static let accountColumns = "\(userColumns), users.passwordHash, users.isAdmin, users.disabledAt"

    /// An account from the columns of `accountColumns`: only rows with a password are selected.
    static func account(_ row: PostgresRow) throws -> Account {
        let (id, name, createdAt, language, passwordHash, isAdmin, disabledAt) = try row.decode((UUID, String, Date, String?, String, Bool, Date?).self)
        return Account(user: User(id: id, name: name, createdAt: createdAt, language: language), passwordHash: passwordHash, isAdmin: isAdmin,
                       disabledAt: disabledAt)
    }

    // MARK: - Sign-up

    private static let signUpModeName = "signUpMode"

    private func signUpMode(_ connection: PostgresConnection) async throws -> SignUpMode {
        let value = try await connection.row("SELECT value FROM serverSetting WHERE name = \(Self.signUpModeName)", logger: logger)?
            .decode(String.self)
        return value.flatMap(SignUpMode.init(rawValue:)) ?? .standard
    }

    public func signUpMode() async throws -> SignUpMode {
        try await connection { [self] connection in try await signUpMode(connection) }
    }

    public func setSignUpMode(_ mode: SignUpMode) async throws {
        try await write(locking: .server) { [self] connection in
            try await connection.run("""
                INSERT INTO serverSetting (name, value) VALUES (\(Self.signUpModeName), \(mode.rawValue))
                ON CONFLICT (name) DO UPDATE SET value = excluded.value
                """, logger: logger)
        }
    }

    public func createSignUpInvite(codeHash: Data, createdAt: Date, expiresAt: Date, uses: Int) async throws -> SignUpInviteInfo {
        try await write(locking: .server) { [self] connection in
            // Spent and expired invites go whenever a new one comes.
            try await connection.run("DELETE FROM signUpInvite WHERE usesLeft <= 0 OR expiresAt <= \(createdAt)", logger: logger)
            try await connection.run("""
                INSERT INTO signUpInvite (codeHash, createdAt, expiresAt, usesLeft) VALUES (\(codeHash), \(createdAt), \(expiresAt), \(uses))
                """, logger: logger)
            return SignUpInviteInfo(id: SessionInfo.id(of: codeHash), createdAt: createdAt, expiresAt: expiresAt, usesLeft: uses)
        }
    }

    public func signUpInvites(now: Date) async throws -> [SignUpInviteInfo] {
        try await connection { [self] connection in
            try await connection.rows("""
                SELECT codeHash, createdAt, expiresAt, usesLeft FROM signUpInvite WHERE usesLeft > 0 AND expiresAt > \(now)
                ORDER BY createdAt, codeHash
                """, logger: logger).map { row in
                let (codeHash, createdAt, expiresAt, usesLeft) = try row.decode((Data, Date, Date, Int).self)
                return SignUpInviteInfo(id: SessionInfo.id(of: codeHash), createdAt: createdAt, expiresAt: expiresAt, usesLeft: usesLeft)
            }
        }
    }

    public func deleteSignUpInvite(id: String) async throws {
        try await write(locking: .server) { [self] connection in
            // The id is derived from the hash in Swift, so the (few) hashes are matched here.
            let hashes = try await connection.rows("SELECT codeHash FROM signUpInvite ORDER BY createdAt", logger: logger)
                .map { try $0.decode(Data.self) }
            guard let hash = hashes.first(where: { SessionInfo.id(of: $0) == id }) else {
                throw StoreRefusal.noInvite(id)
            }
            try await connection.run("DELETE FROM signUpInvite WHERE codeHash = \(hash)", logger: logger)
        }
    }
}
