import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// The goal and the profile it is computed from (H7, H8).
struct GoalController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("goal", use: goal)
        group.put("goal", use: setGoal)
        group.post("goal/calculate", use: calculate)
        group.get("profile", use: goal)
        group.put("profile", use: setProfile)
        group.delete("profile", use: clearProfile)
    }

    @Sendable func goal(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).goalStatus())
    }

    @Sendable func setGoal(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<GoalStatus> {
        let hydration = try services.hydration(context)
        let change = try await request.decodeJSON(GoalChange.self, context: context)
        return JSONBody(try await hydration.setGoal(try change.choice()))
    }

    /// Computes a goal with its breakdown without saving anything (onboarding's preview).
    @Sendable func calculate(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<GoalBreakdown> {
        _ = try context.requireUser()
        let profile = try await request.decodeJSON(Profile.self, context: context)
        return JSONBody(GoalCalculator.goal(for: profile))
    }

    @Sendable func setProfile(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<GoalStatus> {
        let hydration = try services.hydration(context)
        let profile = try await request.decodeJSON(Profile.self, context: context)
        return JSONBody(try await hydration.setProfile(profile))
    }

    @Sendable func clearProfile(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<GoalStatus> {
        JSONBody(try await services.hydration(context).setProfile(nil))
    }
}
