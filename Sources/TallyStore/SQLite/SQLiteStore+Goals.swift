import Foundation
import GRDB
import TallyCore
import TallyRepositories

extension SQLiteStore: GoalRepository {
    public func profile(of user: UUID) async throws -> Profile? {
        try await read { db in try Self.profile(user, db) }
    }

    public func goalHistory(of user: UUID) async throws -> GoalHistory {
        try await read { db in try Self.goalHistory(user, db) }
    }

    public func saveProfile(_ profile: Profile?, of user: UUID,
                            update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) -> Void) async throws -> GoalHistory {
        try await write { db in
            let settings = try Self.settings(user, db)
            try Profile.save(profile, of: user, db)
            return try Self.changeGoalHistory(user, db) { history in update(&history, profile, settings) }
        }
    }

    public func updateGoalHistory(of user: UUID,
                                  update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) throws -> Void) async throws -> GoalHistory {
        try await write { db in
            let (profile, settings) = (try Self.profile(user, db), try Self.settings(user, db))
            return try Self.changeGoalHistory(user, db) { history in try update(&history, profile, settings) }
        }
    }

    static func profile(_ user: UUID, _ db: Database) throws -> Profile? {
        Profile.read(try part(Profile.columns, from: "userProfile", of: user, db))
    }

    static func goalHistory(_ user: UUID, _ db: Database) throws -> GoalHistory {
        GoalHistory(periods: try GoalRecord.fetchAll(db.cachedStatement(sql: "SELECT * FROM goal WHERE userId = ?"),
                                                     arguments: [user]).map(\.period))
    }

    /// Applies `change` and writes back the periods it added or altered, and deletes those it
    /// left out (a restore replaces the whole history).
    private static func changeGoalHistory(_ user: UUID, _ db: Database,
                                          _ change: (inout GoalHistory) throws -> Void) throws -> GoalHistory {
        let before = try goalHistory(user, db)
        var after = before
        try change(&after)
        for period in before.periods where !after.periods.contains(where: { $0.start == period.start }) {
            try db.execute(sql: "DELETE FROM goal WHERE userId = ? AND startDay = ?", arguments: [user, period.start.number])
        }
        for period in after.periods where !before.periods.contains(period) {
            try GoalRecord(period, userId: user).save(db)
        }
        return after
    }
}
