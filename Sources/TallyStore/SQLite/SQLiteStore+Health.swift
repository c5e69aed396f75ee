import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: HealthRecordRepository {
    public func importHealthRecords(drinks: [Intake], asleep: [DateInterval], of user: UUID, at now: Date) async throws -> (drinks: Int, asleep: Int) {
        try await write { db in
            try Self.requireUser(user, db)
            let remember = try db.cachedStatement(sql: "INSERT OR IGNORE INTO importedDrink (userId, id) VALUES (?, ?)")
            let new = try drinks.filter { drink in
                try remember.execute(arguments: [user, drink.id])
                return db.changesCount == 1
            }
            let drinksAdded = try Self.insertIntakes(new, of: user, db)
            let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO asleepInterval (userId, start, end, importedAt) VALUES (?, ?, ?, ?)")
            var asleepAdded = 0
            for interval in asleep {
                try statement.execute(arguments: [user, interval.start, interval.end, now])
                asleepAdded += db.changesCount
            }
            return (drinksAdded, asleepAdded)
        }
    }

    public func forgetDeletedImports(of user: UUID) async throws -> Int {
        try await write { db in
            try Self.requireUser(user, db)
            try db.execute(sql: """
                DELETE FROM importedDrink
                WHERE userId = :user AND NOT EXISTS (SELECT 1 FROM intake WHERE intake.id = importedDrink.id AND intake.userId = :user)
                """, arguments: ["user": user])
            return db.changesCount
        }
    }

    public func sleepRecords(of user: UUID, endingAfter since: Date) async throws -> [SleepRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT start, end, importedAt FROM asleepInterval WHERE userId = ? AND end > ? ORDER BY start",
                             arguments: [user, since])
                .map { SleepRecord(interval: DateInterval(start: $0["start"], end: $0["end"]), importedAt: $0["importedAt"]) }
        }
    }
}
