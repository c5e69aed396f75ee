import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Web Push subscriptions (H11): the browser subscribes with the server's public key and sends
/// its subscription here; a test reminder shows that it works.
struct PushController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<TallyRequestContext>) {
        group.get("push/key", use: key)
        group.post("push/subscriptions", use: subscribe)
        group.delete("push/subscriptions", use: unsubscribe)
        group.post("push/test", use: test)
    }

    @Sendable func key(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[String: String]> {
        _ = try context.requireUser()
        return JSONBody(["publicKey": try await services.push.vapid().publicKey])
    }

    /// The browser's subscription, as PushSubscription.toJSON() gives it.
    @Sendable func subscribe(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let body = try await request.decodeJSON(SubscriptionBody.self, context: context)
        try await services.store.savePushSubscription(try body.subscription(policy: services.push.endpoints), of: user.id,
                                                      at: services.clock.now, limit: pushSubscriptionLimit)
        return Response(status: .created)
    }

    @Sendable func unsubscribe(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let body = try await request.decodeJSON(EndpointBody.self, context: context)
        try await services.store.deletePushSubscription(endpoint: body.endpoint, of: user.id)
        return Response(status: .noContent)
    }

    /// Sends a reminder now to every device of the user; says how many push services took it.
    @Sendable func test(_ request: Request, context: TallyRequestContext) async throws -> JSONBody<[String: Int]> {
        let user = try context.requireUser()
        let subscriptions = try await services.store.pushSubscriptions(of: user.id)
        guard !subscriptions.isEmpty else {
            throw TallyError.conflict("No device of yours has notifications turned on: turn them on in Settings first.")
        }
        let sender = try await services.push.sender()
        let sent = await sender.send(PushSender.reminder, to: subscriptions, now: services.clock.now)
        return JSONBody(["sent": sent, "devices": subscriptions.count])
    }
}

struct SubscriptionBody: Decodable {
    var endpoint: String
    var keys: Keys

    struct Keys: Decodable {
        var p256dh: String
        var auth: String
    }

    func subscription(policy: PushEndpointPolicy) throws -> PushSubscription {
        _ = try PushEndpoint(endpoint, policy: policy)
        guard let p256dh = Data(base64URL: keys.p256dh), p256dh.count == 65, p256dh.first == 4 else {
            throw TallyError.invalid("keys.p256dh must be the browser's P-256 public key: 65 bytes, base64url.")
        }
        guard let auth = Data(base64URL: keys.auth), auth.count == 16 else {
            throw TallyError.invalid("keys.auth must be the browser's 16-byte secret, base64url.")
        }
        return PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }
}

struct EndpointBody: Decodable {
    var endpoint: String
}
