import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyStore

/// Sends push messages (RFC 8030): the payload encrypted for the subscription (RFC 8291) and
/// signed for with VAPID (RFC 8292), posted to the subscription's push service.
struct PushSender: Sendable {
    let vapid: VAPID
    let store: any TallyStorage

    /// What the service worker shows.
    struct Notification: Encodable {
        var title: String
        var body: String
        var url: String
    }

    static let reminder = Notification(title: "Tally", body: "Time for a glass of water.", url: "/")

    /// Sends `notification` to every subscription of the user; a subscription the push service
    /// says is gone (404, 410) is removed. Returns how many push services accepted it.
    @discardableResult
    func send(_ notification: Notification, to subscriptions: [PushSubscription], now: Date) async -> Int {
        var accepted = 0
        for subscription in subscriptions {
            switch await post(notification, to: subscription, now: now) {
            case 200..<300: accepted += 1
            case 404, 410: try? await store.deletePushSubscription(endpoint: subscription.endpoint, of: nil)
            default: break
            }
        }
        return accepted
    }

    /// The push service's status, or 0 when it could not be reached.
    private func post(_ notification: Notification, to subscription: PushSubscription, now: Date) async -> Int {
        guard let endpoint = URL(string: subscription.endpoint),
              let body = try? WebPushMessage.encrypt(try JSONEncoder().encode(notification),
                                                     p256dh: subscription.p256dh, auth: subscription.auth),
              let authorization = try? vapid.authorization(for: endpoint, now: now) else { return 0 }
        var request = URLRequest(url: endpoint, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue("aes128gcm", forHTTPHeaderField: "Content-Encoding")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        // A reminder an hour late is no use.
        request.setValue("3600", forHTTPHeaderField: "TTL")
        request.setValue("normal", forHTTPHeaderField: "Urgency")
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return 0 }
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
