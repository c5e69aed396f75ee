import Foundation
import TallyAPI
import TallyCore
import TallyRepositories

extension HydrationService {
    public func goalStatus() async throws -> GoalStatus {
        let profile = try await store.profile(of: user)
        return Self.status(profile: profile, history: try await store.goalHistory(of: user))
    }

    /// Sets the goal from today on (H8): automatic, a custom amount, or none.
    public func setGoal(_ choice: GoalChoice) async throws -> GoalStatus {
        let now = clock.now
        let history = try await store.updateGoalHistory(of: user) { history, profile, settings in
            if case .custom(let ml) = choice { try GoalChoice.validateCustom(ml, unit: settings.unit) }
            _ = history.set(Goal(choice, profile: profile), today: LocalDate(containing: now, in: settings.zone))
        }
        return Self.status(profile: try await store.profile(of: user), history: history)
    }

    /// Saves the profile; an automatic goal follows it from today on.
    public func setProfile(_ profile: Profile?) async throws -> GoalStatus {
        let now = clock.now
        let history = try await store.saveProfile(profile, of: user) { history, profile, settings in
            if history.current.mode == .automatic {
                _ = history.set(Goal(.automatic, profile: profile), today: LocalDate(containing: now, in: settings.zone))
            }
        }
        return Self.status(profile: profile, history: history)
    }

    private static func status(profile: Profile?, history: GoalHistory) -> GoalStatus {
        let goal = history.current
        return GoalStatus(mode: goal.mode, goalMl: goal.targetMl,
                          breakdown: profile.map(GoalCalculator.goal(for:)),
                          profile: profile, history: history.periods)
    }
}
