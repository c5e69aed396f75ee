import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: HealthRecordRepository {
    /// A batch in a few statements whatever its size: the ids and the intervals go as arrays,
    /// the new drinks as multi-row inserts.
    public func importHealthRecords(drinks: [Intake], asleep: [DateInterval], of user: UUID, at now: Date) async throws -> (drinks: Int, asleep: Int) {
        try await write(locking: .user(user)) { [self] connection in
            try await requireUser(user, connection)
            // The ids imported before are passed over, even when the drink has been deleted since.
            var remembered = Set(try await connection.rows("""
                INSERT INTO importedDrink (userId, id) SELECT \(user), unnest(\(drinks.map(\.id)))
                ON CONFLICT DO NOTHING RETURNING id
                """, logger: logger).map { try $0.decode(UUID.self) })
            let new = drinks.filter { remembered.remove($0.id) != nil }
            let drinksAdded = try await insertIntakes(new, of: user, connection)
            let asleepAdded = try await connection.rows("""
                INSERT INTO asleepInterval (userId, startAt, endAt, importedAt)
                SELECT \(user), startAt, endAt, \(now) FROM unnest(\(asleep.map(\.start)), \(asleep.map(\.end))) AS night (startAt, endAt)
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger).count
            return (drinksAdded, asleepAdded)
        }
    }

    public func forgetDeletedImports(of user: UUID) async throws -> Int {
        try await write(locking: .user(user)) { [self] connection in
            try await requireUser(user, connection)
            return try await connection.rows("""
                DELETE FROM importedDrink
                WHERE userId = \(user) AND NOT EXISTS (SELECT 1 FROM intake WHERE intake.id = importedDrink.id AND intake.userId = \(user))
                RETURNING 1
                """, logger: logger).count
        }
    }

    public func sleepRecords(of user: UUID, endingAfter since: Date) async throws -> [SleepRecord] {
        try await read { [self] connection in
            try await connection.rows("""
                SELECT startAt, endAt, importedAt FROM asleepInterval WHERE userId = \(user) AND endAt > \(since) ORDER BY startAt
                """, logger: logger).map { row in
                let (start, end, importedAt) = try row.decode((Date, Date, Date?).self)
                return SleepRecord(interval: DateInterval(start: start, end: end), importedAt: importedAt)
            }
        }
    }
}
