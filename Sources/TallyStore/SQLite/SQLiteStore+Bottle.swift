import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: BottleRepository {
    public func bottle(of user: UUID) async throws -> Bottle {
        try await read { db in Bottle(row: try Self.part(Bottle.columns, from: "userBottle", of: user, db)) }
    }

    public func changeBottle(of user: UUID, sip: UUID?,
                             _ change: @escaping @Sendable (inout Bottle, HydrationSettings, [DrinkKind]) throws -> Intake?) async throws -> (bottle: Bottle, intake: Intake?, created: Bool) {
        try await write { db in
            // The settings and the bottle in one statement: every user has settings, not every one a bottle.
            guard let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(HydrationSettings.columns), \(Bottle.columns)
                FROM userSettings LEFT JOIN userBottle ON userBottle.userId = userSettings.userId WHERE userSettings.userId = ?
                """), arguments: [user]) else {
                throw StoreRefusal.noSuchUser
            }
            var bottle = Bottle(row: row)
            if let sip, let existing = try Self.existingEntry(sip, of: user, db) {
                guard case .intake(let stored) = existing else { throw StoreRefusal.idTaken(sip) }
                return (bottle, stored, false)
            }
            let kinds = try DrinkKindRecord.filter(sql: "userId = ?", arguments: [user]).fetchAll(db).map(\.kind)
            let intake = try change(&bottle, HydrationSettings(row: row), kinds)
            try bottle.save(of: user, db)
            guard let intake else { return (bottle, nil, true) }
            try IntakeRecord(intake, userId: user).insert(into: db)
            return (bottle, try Self.intake(intake.id, db), true)
        }
    }
}
