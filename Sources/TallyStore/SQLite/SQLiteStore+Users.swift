import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: UserRepository {
    public func createUser(_ user: User, settings: HydrationSettings, kinds: [DrinkKind]) async throws {
        try await write { db in
            try Self.insertUser(UserRecord(user), settings: settings, kinds: kinds, db)
        }
    }

    /// Stores the account with the user's settings and drink kinds.
    static func insertUser(_ record: UserRecord, settings: HydrationSettings, kinds: [DrinkKind], _ db: Database) throws {
        if try UserRecord.filter(UserRecord.Columns.name == record.name).fetchCount(db) > 0 {
            throw StoreRefusal.userNameTaken(record.name)
        }
        try record.insert(db)
        try settings.save(of: record.id, db)
        for kind in kinds {
            try DrinkKindRecord(kind, userId: record.id).insert(db)
        }
    }

    // Every command looks its user up by name, and a signed-in page by id: a cached statement
    // read into `User(row:)` costs a command's first read less than the query interface's
    // generated SQL and the record's Codable decoding (bench/hydration.sh).
    public func user(named name: String) async throws -> User? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, createdAt, language FROM user WHERE name = ?"),
                             arguments: [name]).map(User.init(row:))
        }
    }

    public func user(id: UUID) async throws -> User? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT id, name, createdAt, language FROM user WHERE id = ?"),
                             arguments: [id]).map(User.init(row:))
        }
    }

    public func setLanguage(of user: UUID, to language: String?) async throws {
        try await write { db in try db.execute(sql: "UPDATE user SET language = ? WHERE id = ?", arguments: [language, user]) }
    }

    public func settings(of user: UUID) async throws -> HydrationSettings {
        try await read { db in try Self.settings(user, db) }
    }

    public func changeSettings(of user: UUID, _ change: @escaping @Sendable (inout HydrationSettings) throws -> Void) async throws -> HydrationSettings {
        try await write { db in
            var settings = try Self.settings(user, db)
            try change(&settings)
            try db.execute(sql: "UPDATE userSettings SET unit = ?, timeZone = ?, presets = ? WHERE userId = ?",
                           arguments: [settings.unit.rawValue, settings.timeZone, settings.presetsColumn, user])
            return settings
        }
    }

    /// The user's settings, read on every drink: every user has a row, written with the account.
    static func settings(_ user: UUID, _ db: Database) throws -> HydrationSettings {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(HydrationSettings.columns) FROM userSettings WHERE userId = ?"),
                                         arguments: [user]) else {
            throw StoreRefusal.noSuchUser
        }
        return HydrationSettings(row: row)
    }

    static func userRecord(_ id: UUID, _ db: Database) throws -> UserRecord {
        guard let record = try UserRecord.fetchOne(db, key: id) else { throw StoreRefusal.noSuchUser }
        return record
    }

    /// Refuses a user who is not stored, before writing a part of them.
    static func requireUser(_ id: UUID, _ db: Database) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM user WHERE id = ?)"), arguments: [id]) == true else {
            throw StoreRefusal.noSuchUser
        }
    }

    /// One of the user's parts with its columns (`Bottle.columns`, say), joined to the account so
    /// that a user without that part reads NULLs and an unknown user no row.
    static func part(_ columns: String, from table: String, of user: UUID, _ db: Database) throws -> Row {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(columns) FROM user LEFT JOIN \(table) ON \(table).userId = user.id WHERE user.id = ?
            """), arguments: [user]) else {
            throw StoreRefusal.noSuchUser
        }
        return row
    }

}

extension SQLiteStore: DrinkKindRepository {
    public func drinkKinds(of user: UUID) async throws -> [DrinkKind] {
        try await read { db in try Self.drinkKinds(user, db) }
    }

    /// Read by column place: every drink reads all of its person's kinds, and reading each
    /// column by name took a tenth of a drink's instructions (callgrind).
    static func drinkKinds(_ user: UUID, _ db: Database) throws -> [DrinkKind] {
        try Array(Row.fetchCursor(db.cachedStatement(sql: """
            SELECT id, name, factor, isBuiltIn, isRetired FROM drinkKind WHERE userId = ?
            ORDER BY isBuiltIn DESC, name COLLATE NOCASE
            """), arguments: [user]).map { row in
            DrinkKind(id: row[0], name: row[1], factor: row[2], isBuiltIn: row[3], isRetired: row[4])
        })
    }

    public func changeDrinkKinds<Answer: Sendable>(
        of user: UUID, _ change: @escaping @Sendable ([DrinkKind]) throws -> (save: [DrinkKind], answer: Answer)
    ) async throws -> Answer {
        try await write { db in
            try Self.requireUser(user, db)
            let (changed, answer) = try change(try Self.drinkKinds(user, db))
            for kind in changed {
                try Self.saveDrinkKind(kind, of: user, db)
            }
            return answer
        }
    }

    static func saveDrinkKind(_ kind: DrinkKind, of user: UUID, _ db: Database) throws {
        if let existing = try DrinkKindRecord.fetchOne(db, key: kind.id), existing.userId != user {
            throw StoreRefusal.noSuchKind
        }
        let clash = try DrinkKindRecord
            .filter(DrinkKindRecord.Columns.userId == user)
            .filter(sql: "name = ? COLLATE NOCASE AND NOT isRetired AND id <> ?", arguments: [kind.name, kind.id])
            .fetchCount(db)
        if clash > 0 && !kind.isRetired {
            throw StoreRefusal.kindNameTaken(kind.name)
        }
        try DrinkKindRecord(kind, userId: user).save(db)
    }
}
