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

    /// What the service worker shows.
    struct Notification: Encodable {
        var title: String
        var body: String
        var url: String
    }

    /// The water reminder, in the person's language (the one their account keeps; English else:
    /// a push has no browser to ask).
    static func reminder(for user: User) -> Notification {
        let written = Written(chosen: user.language.flatMap(Language.matching), acceptLanguage: nil)
        return Notification(title: "Tally", body: written.say(Phrase("Time for a glass of water.")), url: "/")
    }

    /// How many push services are waited for at once: enough that a few dead endpoints (each
    /// held up to the 15 s timeout) cannot delay everyone else's reminders, few enough not to
    /// open hundreds of connections at the top of a minute.
    static let concurrentSends = 16

    /// Sends `notification` to every subscription, several at a time; a subscription the push
    /// service says is gone (404, 410) is removed, and any other failure is logged (by the push
    /// service's host: the endpoint's path is the subscription's secret) and counted in
    /// `tally_push_failures_total`. Returns how many push services accepted it.
    @discardableResult
    func send(_ notification: Notification, to subscriptions: [PushSubscription], now: Date) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var waiting = subscriptions.makeIterator()
            func sendNext() {
                guard let subscription = waiting.next() else { return }
                group.addTask { await deliver(notification, to: subscription, now: now) }
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
    private func deliver(_ notification: Notification, to subscription: PushSubscription, now: Date) async -> Bool {
        let status = await post(notification, to: subscription, now: now)
        switch status {
        case 200..<300:
            return true
        case 404, 410:
            try? await store.deletePushSubscription(endpoint: subscription.endpoint, of: nil)
        default:
            ServerMetrics.pushFailures.increment()
            logger.warning("A push service did not take a notification.", metadata: [
                "push.host": "\(URL(string: subscription.endpoint)?.host ?? "?")",
                "push.status": "\(status == 0 ? "no answer" : String(status))",
            ])
        }
        return false
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
