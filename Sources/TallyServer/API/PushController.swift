import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// Web Push subscriptions (H11): the browser subscribes with the server's public key and sends
/// its subscription here; a test reminder shows that it works.
struct PushController {
    let services: APIServices

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.on(API.pushKey, use: key)
        group.on(API.subscribe, use: subscribe)
        group.on(API.unsubscribe, use: unsubscribe)
        group.on(API.testPush, use: test)
        group.on(API.pushDevices, use: devices)
        group.on(API.snoozeReminders, use: snooze)
    }

    @Sendable func devices(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<PushDeviceList> {
        JSONBody(PushDeviceList(items: try await services.push.devices(of: context.user)))
    }

    @Sendable func snooze(_ body: SnoozeBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<SnoozeAnswer> {
        JSONBody(SnoozeAnswer(until: try await services.push.snooze(context.user, minutes: body.minutes, now: services.clock.now)))
    }

    @Sendable func key(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<PushKey> {
        JSONBody(PushKey(publicKey: try await services.push.vapid().publicKey))
    }

    @Sendable func subscribe(_ body: PushSubscriptionBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<NoBody> {
        try await services.push.subscribe(context.user, body, device: DeviceName.from(userAgent: request.headers[.userAgent]),
                                          now: services.clock.now)
        return .empty(.created)
    }

    @Sendable func unsubscribe(_ body: PushEndpointBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<NoBody> {
        try await services.push.unsubscribe(context.user, endpoint: body.endpoint)
        return .empty()
    }

    @Sendable func test(_: NoBody, _ request: Request, context: SignedInContext) async throws -> JSONBody<PushTestResult> {
        JSONBody(try await services.push.test(context.user, now: services.clock.now))
    }
}

