import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The goal and the profile it is computed from (H7, H8).
struct GoalController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.goal, use: goal)
        group.on(API.setGoal, use: setGoal)
        group.on(API.calculateGoal, use: calculate)
        group.on(API.profile, use: goal)
        group.on(API.setProfile, use: setProfile)
        group.on(API.clearProfile, use: clearProfile)
    }

    @Sendable func goal(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).goalStatus())
    }

    @Sendable func setGoal(_ change: GoalChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).setGoal(try change.choice()))
    }

    /// Computes a goal with its breakdown without saving anything (onboarding's preview).
    @Sendable func calculate(_ profile: Profile, _ request: Request, context: SignedInContext) async throws -> JSONBody<GoalBreakdown> {
        JSONBody(GoalCalculator.goal(for: profile))
    }

    @Sendable func setProfile(_ profile: Profile, _ request: Request, context: SignedInContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).setProfile(profile))
    }

    @Sendable func clearProfile(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).setProfile(nil))
    }
}
