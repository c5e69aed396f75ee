import Foundation
import PostgresNIO
import TallyCore
import TallyRepositories

extension PostgresStore: GoalRepository {
    public func profile(of user: UUID) async throws -> Profile? {
        try await read { [self] connection in try await profile(user, connection) }
    }

    public func goalHistory(of user: UUID) async throws -> GoalHistory {
        try await read { [self] connection in try await goalHistory(user, connection) }
    }

    public func saveProfile(_ profile: Profile?, of user: UUID,
                            update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) -> Void) async throws -> GoalHistory {
        try await write(locking: .user(user)) { [self] connection in
            let settings = try await settings(user, connection)
            try await saveProfile(profile, of: user, connection)
            return try await changeGoalHistory(user, connection) { history in update(&history, profile, settings) }
        }
    }

    public func updateGoalHistory(of user: UUID,
                                  update: @escaping @Sendable (inout GoalHistory, Profile?, HydrationSettings) throws -> Void) async throws -> GoalHistory {
        try await write(locking: .user(user)) { [self] connection in
            let (profile, settings) = (try await profile(user, connection), try await settings(user, connection))
            return try await changeGoalHistory(user, connection) { history in try update(&history, profile, settings) }
        }
    }

    /// The user's profile; nil until they give one. An unknown user is not found.
    func profile(_ user: UUID, _ connection: PostgresConnection) async throws -> Profile? {
        guard let row = try await connection.row("""
            SELECT userProfile.age, userProfile.weightKg, userProfile.activity
            FROM users LEFT JOIN userProfile ON userProfile.userId = users.id WHERE users.id = \(user)
            """, logger: logger) else {
            throw StoreRefusal.noSuchUser
        }
        let (age, weightKg, activity) = try row.decode((Int?, Double?, String?).self)
        return .stored(age: age, weightKg: weightKg, activity: activity)
    }

    /// Stores the profile, or removes it (nil).
    private func saveProfile(_ profile: Profile?, of user: UUID, _ connection: PostgresConnection) async throws {
        guard let profile else {
            try await connection.run("DELETE FROM userProfile WHERE userId = \(user)", logger: logger)
            return
        }
        try await connection.run("""
            INSERT INTO userProfile (userId, age, weightKg, activity)
            VALUES (\(user), \(profile.age), \(profile.weightKg), \(profile.activity.rawValue))
            ON CONFLICT (userId) DO UPDATE SET age = excluded.age, weightKg = excluded.weightKg, activity = excluded.activity
            """, logger: logger)
    }

    /// The settings and the goal history in one statement: what a day's screen reads first.
    func settingsAndGoals(_ user: UUID, _ connection: PostgresConnection) async throws -> (HydrationSettings, GoalHistory) {
        let rows = try await connection.all(SettingsAndGoalsStatement(user: user), logger: logger)
        guard let first = rows.first else { throw StoreRefusal.noSuchUser }
        return (first.settings, GoalHistory(periods: rows.compactMap(\.period)))
    }

    func goalHistory(_ user: UUID, _ connection: PostgresConnection) async throws -> GoalHistory {
        GoalHistory(periods: try await connection.rows("""
            SELECT startDay, endDay, mode, targetMl FROM goal WHERE userId = \(user)
            """, logger: logger).map { row in
            let (start, end, mode, targetMl) = try row.decode((LocalDate, LocalDate?, String, Double?).self)
            return GoalPeriod(start: start, end: end, goal: .stored(mode: mode, targetMl: targetMl))
        })
    }

    /// Applies `change`, writes back the periods it added or altered, and deletes those it left
    /// out (a restore replaces the whole history).
    private func changeGoalHistory(_ user: UUID, _ connection: PostgresConnection,
                                   _ change: (inout GoalHistory) throws -> Void) async throws -> GoalHistory {
        let before = try await goalHistory(user, connection)
        var after = before
        try change(&after)
        let dropped = before.periods.filter { period in !after.periods.contains { $0.start == period.start } }.map(\.start)
        if !dropped.isEmpty {
            try await connection.run("DELETE FROM goal WHERE userId = \(user) AND startDay = ANY(\(dropped))", logger: logger)
        }
        for period in after.periods where !before.periods.contains(period) {
            try await connection.run("""
                INSERT INTO goal (userId, startDay, endDay, mode, targetMl)
                VALUES (\(user), \(period.start), \(period.end), \(period.goal.mode.rawValue), \(period.goal.targetMl))
                ON CONFLICT (userId, startDay) DO UPDATE SET endDay = excluded.endDay, mode = excluded.mode, targetMl = excluded.targetMl
                """, logger: logger)
        }
        return after
    }
}
