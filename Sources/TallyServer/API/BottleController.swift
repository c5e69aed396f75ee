import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The bottle (H10).
struct BottleController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.bottle, use: show)
        group.on(API.changeBottle, use: change)
        group.on(API.sip, use: sip)
        group.on(API.fillBottle, use: fill)
    }

    @Sendable func show(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<Bottle> {
        JSONBody(try await services.hydration(context).bottle())
    }

    /// A sip: 201 with the drink it logged; the same `id` again is the same sip (200).
    @Sendable func sip(_ body: SipRequest, _ request: Request, context: SignedInContext) async throws -> JSONBody<BottleResult> {
        let result = try await services.hydration(context).sip(id: body.id)
        return JSONBody(result, status: result.created ? .created : .ok)
    }

    @Sendable func fill(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<Bottle> {
        JSONBody(try await services.hydration(context).fillBottle())
    }

    /// Sets any of the capacity, the level and the sip size, all or nothing.
    @Sendable func change(_ body: BottleChange, _ request: Request, context: SignedInContext) async throws -> JSONBody<Bottle> {
        JSONBody(try await services.hydration(context).adjustBottle(capacityMl: body.capacityMl, levelMl: body.levelMl, sipMl: body.sipMl))
    }
}
