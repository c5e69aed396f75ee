@preconcurrency import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import Testing

/// Reminders delivered by Web Push (H11), end to end without the internet: a push service on
/// loopback receives the server's requests, checks the VAPID JWT against the key it names, and
/// decrypts each message with the subscription's private key made here.
@Suite("Reminder delivery (H11)")
struct ReminderDeliveryTests {
    /// What the loopback push service received.
    actor Inbox {
        var messages: [(path: String, authorization: String, body: Data)] = []
        func add(_ path: String, _ authorization: String, _ body: Data) { messages.append((path, authorization, body)) }

        /// /hang/… answers only once the test releases it (a push service that never answers).
        var released = false
        var waiting: [CheckedContinuation<Void, Never>] = []
        func waitForRelease() async {
            if released { return }
            await withCheckedContinuation { waiting.append($0) }
        }
        func release() {
            released = true
            waiting.forEach { $0.resume() }
            waiting = []
        }
    }

    /// A push service: /push/… accepts (201), /gone/… says the subscription is gone (410).
    static func pushService(_ inbox: Inbox) -> some ApplicationProtocol {
        let router = Router()
        router.post("push/:id") { request, context -> Response in
            let body = try await request.body.collect(upTo: 10_000)
            await inbox.add(request.uri.path, request.headers[.authorization] ?? "", Data(buffer: body))
            return Response(status: .created)
        }
        router.post("gone/:id") { _, _ -> Response in Response(status: .gone) }
        router.post("broken/:id") { _, _ -> Response in Response(status: .internalServerError) }
        router.post("hang/:id") { _, _ -> Response in
            await inbox.waitForRelease()
            return Response(status: .created)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    /// Checks a message as a push service and a browser would: the JWT's signature and claims,
    /// then the payload; returns the notification's body text.
    static func read(_ message: (path: String, authorization: String, body: Data), port: Int,
                     browser: P256.KeyAgreement.PrivateKey, auth: Data) throws -> String {
        let parts = message.authorization.split(separator: " ")
        #expect(parts.first == "vapid")
        let token = String(parts[1].dropFirst(2).dropLast())
        let key = try P256.Signing.PublicKey(x963Representation: Data(base64URL: String(parts[2].dropFirst(2)))!)
        let pieces = token.split(separator: ".").map(String.init)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Data(base64URL: pieces[2])!)
        #expect(key.isValidSignature(signature, for: Data((pieces[0] + "." + pieces[1]).utf8)), "the VAPID signature does not verify")
        let claims = try JSONSerialization.jsonObject(with: Data(base64URL: pieces[1])!) as! [String: Any]
        #expect(claims["aud"] as? String == "http://127.0.0.1:\(port)")
        #expect(claims["sub"] as? String == "mailto:tally@localhost")
        let text = try WebPushMessageTests.decrypt(message.body, browserKey: browser, auth: auth)
        let notification = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return notification["body"] as? String ?? ""
    }

    /// ada subscribed at `endpoint` with the browser's key, and a reminder service for her store.
    static func subscribedService(_ f: ServerFixture, endpoint: String, browser: P256.KeyAgreement.PrivateKey) async throws -> ReminderService {
        try await f.store.savePushSubscription(PushSubscription(
            endpoint: endpoint, p256dh: browser.publicKey.x963Representation, auth: WebPushMessage.randomBytes(16)),
            of: f.ada.id, at: f.clock.now, limit: pushSubscriptionLimit)
        return ReminderService(store: f.store, clock: f.clock, push: PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests))
    }

    @Test("H11: a due reminder is sent once by two servers sharing a database, and read by the browser")
    func exactlyOnce() async throws {
        // setup: ada, reminders at 11:00, 15:00 and 19:00 Berlin; a subscription with our keys
        let f = try await ServerFixture(now: "2026-01-10T09:59:30Z")
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.saveReminderSettings(ReminderSettings(
            enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil))
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = WebPushMessage.randomBytes(16)
        let inbox = Inbox()
        try await Self.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            try await f.store.savePushSubscription(PushSubscription(
                endpoint: "http://127.0.0.1:\(port)/push/ada-phone", p256dh: browser.publicKey.x963Representation, auth: auth),
                of: f.ada.id, at: f.clock.now, limit: pushSubscriptionLimit)
            let push = PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests)
            let first = ReminderService(store: f.store, clock: f.clock, push: push)
            let second = ReminderService(store: f.store, clock: f.clock, push: push)

            // act: both servers tick over 10:59:30–11:00:30 Berlin at the same moment
            let from = f.clock.now, to = from.addingTimeInterval(60)
            async let a = first.tick(from: from, to: to)
            async let b = second.tick(from: from, to: to)
            let sent = await a + b

            // check: one reminder, one message, signed and readable
            #expect(sent == 1)
            let messages = await inbox.messages
            #expect(messages.count == 1)
            let text = try Self.read(try #require(messages.first), port: port, browser: browser, auth: auth)
            #expect(text == "Time for a glass of water.")

            // act: the next minute has no reminder; ticking again over the same minute sends nothing
            #expect(await first.tick(from: to, to: to.addingTimeInterval(60)) == 0)
            #expect(await second.tick(from: from, to: to) == 0)
            #expect(await inbox.messages.count == 1)
        }
    }

    @Test("H11: with sleep records chosen, the reminders go out in the waking hours they show")
    func followsSleep() async throws {
        // Seven nights asleep 23:00–05:00 Berlin (UTC+1): awake 05:00–23:00, 3 a day → 09:30, 14:00, 18:30.
        let f = try await ServerFixture(now: "2026-01-10T08:29:30Z")
        let nights = (1...7).map { night in
            let morning = f.clock.now.addingTimeInterval(Double(-night) * 86_400 - (4 * 3600 + 29 * 60 + 30))
            return DateInterval(start: morning.addingTimeInterval(-6 * 3600), end: morning)
        }
        // Imported yesterday: known when today began, so today's window follows them.
        _ = try await f.store.importHealthRecords(drinks: [], asleep: nights, of: f.ada.id, at: f.clock.now.addingTimeInterval(-86_400))
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        let settings = ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil)
        _ = try await hydration.saveReminderSettings(settings)
        let browser = P256.KeyAgreement.PrivateKey()
        let inbox = Inbox()
        try await Self.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            let service = try await Self.subscribedService(f, endpoint: "http://127.0.0.1:\(port)/push/p", browser: browser)
            let from = f.clock.now, to = from.addingTimeInterval(60)
            // 09:30 is no reminder time of the manual 07:00–23:00 (11:00, 15:00, 19:00).
            #expect(await service.tick(from: from, to: to) == 0)
            var chosen = settings
            chosen.useSleepRecords = true
            _ = try await hydration.saveReminderSettings(chosen)
            #expect(await service.tick(from: from, to: to) == 1)
            #expect(await inbox.messages.count == 1)
        }
    }

    @Test("H11: after midnight, the reminders of yesterday's window (crossing midnight) are yesterday's, not today's")
    func yesterdaysWindowAfterMidnight() async throws {
        // One night-shift sleep, 08:00–15:00 Berlin on 3 January: the 10th's 7 days hold it, the
        // 11th's do not. So the 10th is awake 15:00–08:00 (3 reminders: 19:15, 23:30 and 03:45 on
        // the 11th), and the 11th follows the manual 07:00–23:00.
        let f = try await ServerFixture(now: "2026-01-11T02:44:30Z") // 03:44:30 in Berlin
        let night = DateInterval(start: Self.instant("2026-01-03T07:00:00Z"), end: Self.instant("2026-01-03T14:00:00Z"))
        _ = try await f.store.importHealthRecords(drinks: [], asleep: [night], of: f.ada.id, at: Self.instant("2026-01-05T12:00:00Z"))
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 3,
                                                                      smartThresholdHours: nil, useSleepRecords: true))
        let browser = P256.KeyAgreement.PrivateKey()
        let inbox = Inbox()
        try await Self.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            let service = try await Self.subscribedService(f, endpoint: "http://127.0.0.1:\(port)/push/p", browser: browser)
            #expect(await service.tick(from: f.clock.now, to: f.clock.now.addingTimeInterval(60)) == 1)
            #expect(await inbox.messages.count == 1)
        }
    }

    static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("H11: sent reminders are remembered for two days, then forgotten")
    func forgetting() async throws {
        let f = try await ServerFixture(now: "2026-01-10T12:00:00Z")
        let now = f.clock.now
        #expect(try await f.store.claimReminder(key: "fixed old", at: now.addingTimeInterval(-3 * 86_400)))
        #expect(try await f.store.claimReminder(key: "fixed recent", at: now.addingTimeInterval(-3600)))
        #expect(try await f.store.forgetRemindersSent(before: now.addingTimeInterval(-ReminderService.remembered)) == 1)
        #expect(try await f.store.claimReminder(key: "fixed recent", at: now) == false, "still remembered")
        #expect(try await f.store.claimReminder(key: "fixed old", at: now), "forgotten")
    }

    @Test("H11: a subscription the push service says is gone takes nothing more, is listed as gone, and is counted")
    func gone() async throws {
        let f = try await ServerFixture(now: "2026-01-10T09:59:30Z")
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil))
        let browser = P256.KeyAgreement.PrivateKey()
        try await Self.pushService(Inbox()).test(.live) { client in
            let port = try #require(client.port)
            let endpoint = "http://127.0.0.1:\(port)/gone/old-phone"
            let service = try await Self.subscribedService(f, endpoint: endpoint, browser: browser)
            let gone = Self.metric("tally_push_failures_total", "kind=\"reminder\"", "reason=\"gone\"")
            _ = await service.tick(from: f.clock.now, to: f.clock.now.addingTimeInterval(60))
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).isEmpty)
            #expect(try await f.store.pushDevices(of: f.ada.id).map(\.goneAt) == [f.clock.now.addingTimeInterval(60)], "listed as gone, for the page to say so")
            #expect(try await f.store.reminderRecipients().isEmpty)
            #expect(Self.metric("tally_push_failures_total", "kind=\"reminder\"", "reason=\"gone\"") >= gone + 1)
        }
    }

    /// Subscribes `user` at `endpoint` with a fresh browser key.
    static func subscribe(_ f: ServerFixture, _ user: User, at endpoint: String) async throws {
        try await f.store.savePushSubscription(PushSubscription(
            endpoint: endpoint, p256dh: P256.KeyAgreement.PrivateKey().publicKey.x963Representation, auth: WebPushMessage.randomBytes(16)),
            of: user.id, at: f.clock.now, limit: pushSubscriptionLimit)
    }

    /// The sum of the metric's lines in /metrics now that carry every one of `labels`
    /// (`kind="reminder"`), whatever their order.
    static func metric(_ name: String, _ labels: String...) -> Double {
        let text = String(decoding: ServerMetrics.registry.emitToBuffer(), as: UTF8.self)
        return text.split(separator: "\n").filter { line in line.hasPrefix(name + "{") && labels.allSatisfy { line.contains($0) } }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
    }

    static func pushFailures() -> Double { metric("tally_push_failures_total", "kind=\"reminder\"", "reason=\"refused\"") }

    @Test("H11: a push service that never answers does not hold back another person's reminder")
    func hangingService() async throws {
        let f = try await ServerFixture(now: "2026-01-10T09:59:30Z")
        for user in [f.ada, f.bob] {
            _ = try await HydrationService(store: f.store, clock: f.clock, user: user.id)
                .saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil))
        }
        let inbox = Inbox()
        try await Self.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            // ada's phone's push service hangs; bob's answers
            try await Self.subscribe(f, f.ada, at: "http://127.0.0.1:\(port)/hang/ada-phone")
            try await Self.subscribe(f, f.bob, at: "http://127.0.0.1:\(port)/push/bob-phone")
            let service = ReminderService(store: f.store, clock: f.clock,
                                          push: PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests))
            let started = ContinuousClock.now
            let tick = Task { await service.tick(from: f.clock.now, to: f.clock.now.addingTimeInterval(60)) }
            while await inbox.messages.isEmpty, ContinuousClock.now - started < .seconds(8) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let bobWaited = ContinuousClock.now - started
            await inbox.release()
            #expect(await tick.value == 2)
            #expect(await inbox.messages.map(\.path) == ["/push/bob-phone"])
            // Waiting for ada's would take her push service's 15 s timeout; a loaded machine takes
            // a few seconds for bob's alone.
            #expect(bobWaited < .seconds(6), "bob's reminder waited \(bobWaited) for ada's push service")
        }
    }

    @Test("H11: a push service's refusal is counted in /metrics")
    func failureCounted() async throws {
        let f = try await ServerFixture(now: "2026-01-10T09:59:30Z")
        _ = try await HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
            .saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 3, smartThresholdHours: nil))
        try await Self.pushService(Inbox()).test(.live) { client in
            let port = try #require(client.port)
            try await Self.subscribe(f, f.ada, at: "http://127.0.0.1:\(port)/broken/ada-phone")
            let service = ReminderService(store: f.store, clock: f.clock,
                                          push: PushCenter(store: f.store, contact: "mailto:tally@localhost", endpoints: .loopbackForTests))
            let before = Self.pushFailures()
            #expect(await service.tick(from: f.clock.now, to: f.clock.now.addingTimeInterval(60)) == 1)
            // other tests may fail pushes at the same time: at least ours is counted
            #expect(Self.pushFailures() >= before + 1)
            #expect(try await f.store.pushSubscriptions(of: f.ada.id).count == 1, "a refusal is not a gone subscription")
        }
    }

    @Test("H11: a smart reminder comes after the quiet hours, once, and not after a drink")
    func smart() async throws {
        // 09:00 Berlin; nothing drunk since waking at 07:00; threshold 2 h
        let f = try await ServerFixture(now: "2026-01-10T08:00:00Z")
        let hydration = HydrationService(store: f.store, clock: f.clock, user: f.ada.id)
        _ = try await hydration.saveReminderSettings(ReminderSettings(enabled: true, window: .standard, frequency: 8, smartThresholdHours: 2))
        let browser = P256.KeyAgreement.PrivateKey()
        let inbox = Inbox()
        try await Self.pushService(inbox).test(.live) { client in
            let port = try #require(client.port)
            let service = try await Self.subscribedService(f, endpoint: "http://127.0.0.1:\(port)/push/p", browser: browser)
            let now = f.clock.now
            #expect(await service.tick(from: now.addingTimeInterval(-60), to: now) == 1) // 2 h since 07:00
            #expect(await service.tick(from: now, to: now.addingTimeInterval(60)) == 0) // the same quiet stretch
            // a drink starts the wait again: nothing until two hours after it
            f.clock.advance(by: 600)
            try await hydration.logDrink(.init(volumeMl: 250))
            f.clock.advance(by: 3600)
            #expect(await service.tick(from: f.clock.now.addingTimeInterval(-60), to: f.clock.now) == 0)
            f.clock.advance(by: 3600)
            #expect(await service.tick(from: f.clock.now.addingTimeInterval(-60), to: f.clock.now) == 1)
            #expect(await inbox.messages.count == 2)
        }
    }
}
