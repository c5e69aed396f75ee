import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: BottleRepository {
    public func bottle(of user: UUID) async throws -> Bottle {
        try await read { [self] connection in
            guard let row = try await connection.row("""
                SELECT \(unescaped: Self.bottleColumns) FROM users LEFT JOIN userBottle ON userBottle.userId = users.id WHERE users.id = \(user)
                """, logger: logger) else {
                throw StoreRefusal.noSuchUser
            }
            return try Self.bottle(row)
        }
    }

    public func changeBottle(of user: UUID, sip: UUID?,
                             _ change: @escaping @Sendable (inout Bottle, HydrationSettings, [DrinkKind]) throws -> Intake?) async throws -> (bottle: Bottle, intake: Intake?, created: Bool) {
        try await write(locking: .user(user)) { [self] connection in
            // The settings and the bottle in one statement: every user has settings, not every one a bottle.
            guard let row = try await connection.row("""
                SELECT \(unescaped: Self.bottleColumns), \(unescaped: Self.settingsColumns)
                FROM userSettings LEFT JOIN userBottle ON userBottle.userId = userSettings.userId WHERE userSettings.userId = \(user)
                """, logger: logger) else {
                throw StoreRefusal.noSuchUser
            }
            var bottle = try Self.bottle(row)
            if let sip, let existing = try await existingEntry(sip, of: user, connection) {
                guard case .intake(let stored) = existing else { throw StoreRefusal.idTaken(sip) }
                return (bottle, stored, false)
            }
            let (_, _, _, unit, timeZone, presets) = try row.decode((Double?, Double?, Double?, String, String, String?).self)
            let settings = HydrationSettings(unitColumn: unit, timeZone: timeZone, presetsColumn: presets)
            let intake = try change(&bottle, settings, try await drinkKinds(user, connection))
            try await connection.run("""
                INSERT INTO userBottle (userId, capacityMl, levelMl, sipMl)
                VALUES (\(user), \(bottle.capacityMl), \(bottle.levelMl), \(bottle.sipMl))
                ON CONFLICT (userId) DO UPDATE SET capacityMl = excluded.capacityMl, levelMl = excluded.levelMl, sipMl = excluded.sipMl
                """, logger: logger)
            guard let intake else { return (bottle, nil, true) }
            return (bottle, try await insertIntake(intake, of: user, connection), true)
        }
    }

    /// Read by `bottle(_:)` from the row's first three columns; NULLs (no row) are a full standard bottle.
    private static let bottleColumns = "userBottle.capacityMl, userBottle.levelMl, userBottle.sipMl"

    private static func bottle(_ row: PostgresRow) throws -> Bottle {
        let (capacityMl, levelMl, sipMl) = try row.decode((Double?, Double?, Double?).self)
        return .stored(capacityMl: capacityMl, levelMl: levelMl, sipMl: sipMl)
    }
}
