import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// Sends push messages (RFC 8030): the payload encrypted for the subscription (RFC 8291) and
/// signed for with VAPID (RFC 8292), posted to the subscription's push service.
struct PushSender: Sendable {
    let vapid: VAPID
    let store: any TallyStorage
    let policy: PushEndpointPolicy
    var logger = Logger(label: "tally.push")

    /// What the service worker shows, and what its buttons do.
    struct Notification: Encodable, Sendable {
        var title: String
        var body: String
        var url: String
        /// A newer notification with the same tag replaces the older on the device.
        var tag: String?
        /// The buttons under a reminder: "log" and "snooze" (sw.js performs them).
        var actions: [Action]?
        /// The drink "log" adds: its id is made once for the notification, so that a second
        /// tap, or the same reminder answered on two devices, adds it once.
        var drink: Drink?
        /// What the worker says once it did what a button asked, in the person's language.
        var done: [String: String]?

        struct Action: Encodable, Sendable {
            var action: String
            var title: String
        }

        struct Drink: Encodable, Sendable {
            var id: UUID
            var volumeMl: Double
        }
    }

    /// What a push is for, in /metrics.
    enum Kind: String, Sendable {
        case reminder, ledger, test
    }

    /// The water reminder, in the person's language (the one their account keeps; English else:
    /// a push has no browser to ask).
    static func reminder(for user: User) -> Notification {
        Notification(title: "Tally", body: written(for: user).say(Phrase("Time for a glass of water.")), url: "/", tag: "reminder")
    }

    /// The reminder with its buttons: "Log 250 ml" (the person's first quick-add amount, with a
    /// drink id made for this notification) and "Snooze 1 h".
    static func reminder(for user: User, settings: HydrationSettings) -> Notification {
        let written = written(for: user)
        let amount = settings.presets.amountsMl.first ?? 250
        let volume = written.volume(amount, settings.unit)
        var reminder = reminder(for: user)
        reminder.actions = [Notification.Action(action: "log", title: written.say(Phrase("Log \(volume)"))),
                            Notification.Action(action: "snooze", title: written.say(Phrase("Snooze 1 h")))]
        reminder.drink = Notification.Drink(id: UUID(), volumeMl: amount)
        reminder.done = [
            "log": written.say(Phrase("Logged \(volume).")),
            "snooze": written.say(Phrase("No reminders for an hour.")),
            "waiting": written.say(Phrase("Kept on this device: it is sent when you are online.")),
            "failed": written.say(Phrase("That did not work: open Tally and try there.")),
        ]
        return reminder
    }

    /// How `user` reads: their account's language, or English.
    static func written(for user: User) -> Written {
        Written(chosen: user.language.flatMap(Language.matching), acceptLanguage: nil)
    }

    /// How many push services are waited for at once: enough that a few dead endpoints (each
    /// held up to the 15 s timeout) cannot delay everyone else's reminders, few enough not to
    /// open hundreds of connections at the top of a minute.
    static let concurrentSends = 16

    /// Sends `notification` to every subscription, several at a time, and keeps how each push
    /// service answered (the settings page shows it): a subscription the push service says is
    /// gone (404, 410) takes nothing more, and any other failure is logged (by the push
    /// service's host: the endpoint's path is the subscription's secret). Each is counted in
    /// `tally_push_sent_total` or `tally_push_failures_total` by `kind`. Returns how many push
    /// services accepted it.
    @discardableResult
    func send(_ notification: Notification, to subscriptions: [PushSubscription], now: Date, kind: Kind) async -> Int {
        await send(subscriptions.map { (notification, $0) }, now: now, kind: kind)
    }

    /// Sends each notification to its subscription, all several at a time.
    @discardableResult
    func send(_ messages: [(Notification, PushSubscription)], now: Date, kind: Kind) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var waiting = messages.makeIterator()
            func sendNext() {
                guard let (notification, subscription) = waiting.next() else { return }
                group.addTask { await deliver(notification, to: subscription, now: now, kind: kind) }
            }
            for _ in 0..<Self.concurrentSends { sendNext() }
            var accepted = 0
            while let wasAccepted = await group.next() {
                if wasAccepted { accepted += 1 }
                sendNext()
            }
            return accepted
        }
    }

    /// Posts to one subscription and deals with the answer; true when the push service took it.
    private func deliver(_ notification: Notification, to subscription: PushSubscription, now: Date, kind: Kind) async -> Bool {
        let status = await post(notification, to: subscription, now: now)
        let outcome: PushOutcome = switch status {
        case 200..<300: .delivered
        case 404, 410: .gone
        case 0: .failed("no answer")
        default: .failed(String(status))
        }
        try? await store.recordPush(to: subscription.endpoint, at: now, outcome: outcome)
        PushCounts.count(outcome, kind: kind)
        if case .failed(let failure) = outcome {
            logger.warning("A push service did not take a notification.", metadata: [
                "push.host": "\(URL(string: subscription.endpoint)?.host ?? "?")",
                "push.status": "\(failure)",
            ])
        }
        return outcome == .delivered
    }

    /// The push service's status, or 0 when it could not be reached or may not be.
    private func post(_ notification: Notification, to subscription: PushSubscription, now: Date) async -> Int {
        guard let endpoint = try? PushEndpoint(subscription.endpoint, policy: policy),
              let body = try? WebPushMessage.encrypt(try JSONEncoder().encode(notification),
                                                     p256dh: subscription.p256dh, auth: subscription.auth),
              let authorization = try? vapid.authorization(for: endpoint.url, now: now),
              let address = try? await endpoint.resolve(policy: policy) else { return 0 }
        // Connects to the address just checked, not to whatever the name resolves to a moment
        // later (DNS rebinding); TLS still checks the certificate against the name.
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(5), read: .seconds(10)))
        configuration.dnsOverride = [endpoint.host: address.description]
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        var request = HTTPClientRequest(url: endpoint.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Authorization", value: authorization)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        // A reminder an hour late is no use.
        request.headers.add(name: "TTL", value: "3600")
        request.headers.add(name: "Urgency", value: "normal")
        request.body = .bytes(ByteBuffer(bytes: body))
        var status = 0
        if let response = try? await client.execute(request, timeout: .seconds(15)) {
            status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
        }
        try? await client.shutdown()
        return status
    }
}
