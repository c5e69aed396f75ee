import Foundation
import GRDB
import TallyCore

extension SQLiteStore: UserRepository {
    public func createUser(_ user: User, settings: HydrationSettings, kinds: [DrinkKind]) async throws {
        try await write { db in
            try Self.insertUser(UserRecord(user, settings: settings), kinds: kinds, db)
        }
    }

    static func insertUser(_ record: UserRecord, kinds: [DrinkKind], _ db: Database) throws {
        if try UserRecord.filter(UserRecord.Columns.name == record.name).fetchCount(db) > 0 {
            throw TallyError.conflict("There is already a user named \(record.name).")
        }
        try record.insert(db)
        for kind in kinds {
            try DrinkKindRecord(kind, userId: record.id).insert(db)
        }
    }

    public func user(named name: String) async throws -> User? {
        try await read { db in try UserRecord.filter(UserRecord.Columns.name == name).fetchOne(db)?.user }
    }

    public func user(id: UUID) async throws -> User? {
        try await read { db in try UserRecord.fetchOne(db, key: id)?.user }
    }

    public func settings(of user: UUID) async throws -> HydrationSettings {
        try await read { db in try Self.userRecord(user, db).settings }
    }

    public func saveSettings(_ settings: HydrationSettings, of user: UUID) async throws {
        try await write { db in
            var record = try Self.userRecord(user, db)
            record.apply(settings)
            try record.update(db)
        }
    }

    static func userRecord(_ id: UUID, _ db: Database) throws -> UserRecord {
        guard let record = try UserRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id]) else {
            throw TallyError.notFound("No such user.")
        }
        return record
    }
}

extension SQLiteStore: DrinkKindRepository {
    public func drinkKinds(of user: UUID) async throws -> [DrinkKind] {
        try await read { db in try Self.drinkKinds(user, db) }
    }

    static func drinkKinds(_ user: UUID, _ db: Database) throws -> [DrinkKind] {
        try DrinkKindRecord.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM drinkKind WHERE userId = ? ORDER BY isBuiltIn DESC, name COLLATE NOCASE
            """), arguments: [user]).map(\.kind)
    }

    public func saveDrinkKind(_ kind: DrinkKind, of user: UUID) async throws {
        try await write { db in
            if let existing = try DrinkKindRecord.fetchOne(db, key: kind.id), existing.userId != user {
                throw TallyError.notFound("No such drink kind.")
            }
            let clash = try DrinkKindRecord
                .filter(DrinkKindRecord.Columns.userId == user)
                .filter(sql: "name = ? COLLATE NOCASE AND NOT isRetired AND id <> ?", arguments: [kind.name, kind.id])
                .fetchCount(db)
            if clash > 0 && !kind.isRetired {
                throw TallyError.conflict("There is already a drink kind named \(kind.name).")
            }
            try DrinkKindRecord(kind, userId: user).save(db)
        }
    }
}
