import Foundation
import GRDB
import TallyCore

extension SQLiteStore: BottleRepository {
    public func bottle(of user: UUID) async throws -> Bottle {
        try await read { db in try Self.userRecord(user, db).bottle }
    }

    public func changeBottle(of user: UUID, sip: UUID?,
                             _ change: @escaping @Sendable (inout Bottle, HydrationSettings, [DrinkKind]) throws -> Intake?) async throws -> (bottle: Bottle, intake: Intake?, created: Bool) {
        try await write { db in
            var record = try Self.userRecord(user, db)
            if let sip, let existing = try Self.existingEntry(sip, of: user, db) {
                guard case .intake(let stored) = existing else { throw Self.idTaken(sip) }
                return (record.bottle, stored, false)
            }
            var bottle = record.bottle
            let kinds = try DrinkKindRecord.filter(sql: "userId = ?", arguments: [user]).fetchAll(db).map(\.kind)
            guard let intake = try change(&bottle, record.settings, kinds) else {
                record.apply(bottle)
                try record.update(db)
                return (bottle, nil, true)
            }
            record.apply(bottle)
            try record.update(db)
            try IntakeRecord(intake, userId: user).insert(db)
            return (bottle, try Self.intake(intake.id, db), true)
        }
    }
}
