import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// The bottle (H10).
struct BottleController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("bottle", use: show)
        group.patch("bottle", use: change)
        group.post("bottle/sip", use: sip)
        group.post("bottle/fill", use: fill)
    }

    @Sendable func show(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<Bottle> {
        JSONBody(try await services.hydration(context).bottle())
    }

    /// A sip: 201 with the drink it logged; the same `id` again is the same sip (200).
    @Sendable func sip(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<BottleResult> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeOptionalJSON(SipBody.self, context: context)
        let result = try await hydration.sip(id: body?.id)
        return JSONBody(result, status: result.created ? .created : .ok)
    }

    @Sendable func fill(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<Bottle> {
        JSONBody(try await services.hydration(context).fillBottle())
    }

    /// Sets any of the capacity, the level and the sip size, all or nothing.
    @Sendable func change(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<Bottle> {
        let hydration = try services.hydration(context)
        let body = try await request.decodeJSON(BottleChange.self, context: context)
        return JSONBody(try await hydration.adjustBottle(capacityMl: body.capacityMl, levelMl: body.levelMl, sipMl: body.sipMl))
    }
}

struct SipBody: Decodable {
    /// A client's id for the sip: sending it again does not sip twice.
    var id: UUID?
}

struct BottleChange: Decodable {
    var levelMl: Double?
    var capacityMl: Double?
    var sipMl: Double?
}

extension Request {
    /// The body as JSON of type `T`, or nil when there is no body at all.
    func decodeOptionalJSON<T: Decodable>(_ type: T.Type, context: TallyRequestContext) async throws -> T? {
        let body = try await self.body.collect(upTo: context.maxUploadSize)
        guard body.readableBytes > 0 else { return nil }
        return try JSONCoding.decoder.decode(T.self, from: body)
    }
}
