import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: UserRepository {
    public func createUser(_ user: User, settings: HydrationSettings, kinds: [DrinkKind]) async throws {
        try await write(locking: .user(user.id)) { [self] connection in
            try await insertUser(user, passwordHash: nil, isAdmin: false, settings: settings, kinds: kinds, connection)
        }
    }

    /// Stores the account with the user's settings and drink kinds; a taken name is a conflict.
    func insertUser(_ user: User, passwordHash: String?, isAdmin: Bool, settings: HydrationSettings, kinds: [DrinkKind],
                    _ connection: PostgresConnection) async throws {
        let inserted = try await connection.row("""
            INSERT INTO users (id, name, createdAt, passwordHash, isAdmin)
            VALUES (\(user.id), \(user.name), \(user.createdAt), \(passwordHash), \(isAdmin))
            ON CONFLICT ((lower(name))) DO NOTHING RETURNING 1
            """, logger: logger)
        guard inserted != nil else { throw StoreRefusal.userNameTaken(user.name) }
        try await saveSettings(settings, of: user.id, connection)
        for kind in kinds {
            try await connection.run("""
                INSERT INTO drinkKind (id, userId, name, factor, isBuiltIn, isRetired)
                VALUES (\(kind.id), \(user.id), \(kind.name), \(kind.factor), \(kind.isBuiltIn), \(kind.isRetired))
                """, logger: logger)
        }
    }

    public func user(named name: String) async throws -> User? {
        try await connection { [self] connection in
            try await connection.row("SELECT \(unescaped: Self.userColumns) FROM users WHERE lower(name) = lower(\(name))", logger: logger)
                .map(Self.user)
        }
    }

    public func user(id: UUID) async throws -> User? {
        try await connection { [self] connection in
            try await connection.row("SELECT \(unescaped: Self.userColumns) FROM users WHERE id = \(id)", logger: logger).map(Self.user)
        }
    }

    public func setLanguage(of user: UUID, to language: String?) async throws {
        try await write(locking: .user(user)) { [self] connection in
            try await connection.run("UPDATE users SET language = \(language) WHERE id = \(user)", logger: logger)
        }
    }

    public func settings(of user: UUID) async throws -> HydrationSettings {
        try await connection { [self] connection in try await settings(user, connection) }
    }

    public func changeSettings(of user: UUID, _ change: @escaping @Sendable (inout HydrationSettings) throws -> Void) async throws -> HydrationSettings {
        try await write(locking: .user(user)) { [self] connection in
            var settings = try await settings(user, connection)
            try change(&settings)
            try await saveSettings(settings, of: user, connection)
            return settings
        }
    }

    /// The user's settings: every user has a row, written with the account.
    func settings(_ user: UUID, _ connection: PostgresConnection) async throws -> HydrationSettings {
        guard let row = try await connection.row("""
            SELECT \(unescaped: Self.settingsColumns) FROM userSettings WHERE userId = \(user)
            """, logger: logger) else {
            throw StoreRefusal.noSuchUser
        }
        return try Self.settings(row)
    }

    func saveSettings(_ settings: HydrationSettings, of user: UUID, _ connection: PostgresConnection) async throws {
        try await connection.run("""
            INSERT INTO userSettings (userId, unit, timeZone, presets)
            VALUES (\(user), \(settings.unit.rawValue), \(settings.timeZone), \(settings.presetsColumn))
            ON CONFLICT (userId) DO UPDATE SET unit = excluded.unit, timeZone = excluded.timeZone, presets = excluded.presets
            """, logger: logger)
    }

    /// Refuses a user who is not stored, before writing a part of them.
    func requireUser(_ id: UUID, _ connection: PostgresConnection) async throws {
        guard try await connection.row("SELECT 1 FROM users WHERE id = \(id)", logger: logger) != nil else { throw StoreRefusal.noSuchUser }
    }


    /// `users.id, users.name, users.createdAt, users.language`, read by `user(_:)` from the row's first four columns.
    static let userColumns = "users.id, users.name, users.createdAt, users.language"

    static func user(_ row: PostgresRow) throws -> User {
        let (id, name, createdAt, language) = try row.decode((UUID, String, Date, String?).self)
        return User(id: id, name: name, createdAt: createdAt, language: language)
    }

    /// Read by `settings(_:)` from the row's first three columns.
    static let settingsColumns = "userSettings.unit, userSettings.timeZone, userSettings.presets"

    static func settings(_ row: PostgresRow) throws -> HydrationSettings {
        let (unit, timeZone, presets) = try row.decode((String, String, String?).self)
        return HydrationSettings(unitColumn: unit, timeZone: timeZone, presetsColumn: presets)
    }
}

extension PostgresStore: DrinkKindRepository {
    public func drinkKinds(of user: UUID) async throws -> [DrinkKind] {
        try await connection { [self] connection in try await drinkKinds(user, connection) }
    }

    /// Built-in kinds first, then by name whatever its capitals.
    func drinkKinds(_ user: UUID, _ connection: PostgresConnection) async throws -> [DrinkKind] {
        try await connection.rows("""
            SELECT id, name, factor, isBuiltIn, isRetired FROM drinkKind WHERE userId = \(user) \(unescaped: Self.kindOrder)
            """, logger: logger).map { row in
            let (id, name, factor, isBuiltIn, isRetired) = try row.decode((UUID, String, Double, Bool, Bool).self)
            return DrinkKind(id: id, name: name, factor: factor, isBuiltIn: isBuiltIn, isRetired: isRetired)
        }
    }

    static let kindOrder = #"ORDER BY isBuiltIn DESC, lower(name) COLLATE "C", name COLLATE "C""#

    /// The settings and the kinds in one statement: what logging a drink reads first.
    func settingsAndKinds(_ user: UUID, _ connection: PostgresConnection) async throws -> (HydrationSettings, [DrinkKind]) {
        let rows = try await connection.all(SettingsAndKindsStatement(user: user), logger: logger)
        guard let first = rows.first else { throw StoreRefusal.noSuchUser }
        return (first.settings, rows.compactMap(\.kind))
    }

    public func changeDrinkKinds<Answer: Sendable>(
        of user: UUID, _ change: @escaping @Sendable ([DrinkKind]) throws -> (save: [DrinkKind], answer: Answer)
    ) async throws -> Answer {
        try await write(locking: .user(user)) { [self] connection in
            try await requireUser(user, connection)
            let (changed, answer) = try change(try await drinkKinds(user, connection))
            for kind in changed {
                try await saveDrinkKind(kind, of: user, connection)
            }
            return answer
        }
    }

    func saveDrinkKind(_ kind: DrinkKind, of user: UUID, _ connection: PostgresConnection) async throws {
        if let owner = try await connection.row("SELECT userId FROM drinkKind WHERE id = \(kind.id)", logger: logger)?.decode(UUID.self),
           owner != user {
            throw StoreRefusal.noSuchKind
        }
        if !kind.isRetired, try await connection.row("""
            SELECT 1 FROM drinkKind
            WHERE userId = \(user) AND lower(name) = lower(\(kind.name)) AND NOT isRetired AND id <> \(kind.id)
            """, logger: logger) != nil {
            throw StoreRefusal.kindNameTaken(kind.name)
        }
        try await connection.run("""
            INSERT INTO drinkKind (id, userId, name, factor, isBuiltIn, isRetired)
            VALUES (\(kind.id), \(user), \(kind.name), \(kind.factor), \(kind.isBuiltIn), \(kind.isRetired))
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, factor = excluded.factor,
                isBuiltIn = excluded.isBuiltIn, isRetired = excluded.isRetired
            """, logger: logger)
    }
}
