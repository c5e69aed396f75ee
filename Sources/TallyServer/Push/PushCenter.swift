import Crypto
import Foundation
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// The server's push identity and sender: the VAPID key is made on first use and kept in the
/// database, so every instance and every restart signs with the same key that browsers
/// subscribed with.
struct PushCenter: Sendable {
    let store: any TallyStorage
    let contact: String
    var endpoints = PushEndpointPolicy.publicHTTPS

    func vapid() async throws -> VAPID {
        let raw = try await store.serverKey(named: "vapid") { P256.Signing.PrivateKey().rawRepresentation }
        return VAPID(key: try P256.Signing.PrivateKey(rawRepresentation: raw), subject: contact)
    }

    func sender() async throws -> PushSender {
        PushSender(vapid: try await vapid(), store: store, policy: endpoints)
    }
}

extension PushCenter {
    /// Keeps a browser's subscription for the user, after checking its address and keys.
    /// `device` names it as its person recognises it ("Chrome on Android").
    func subscribe(_ user: User, _ body: PushSubscriptionBody, device: String?, now: Date) async throws {
        var subscription = try body.subscription(policy: endpoints)
        subscription.device = device
        try await store.savePushSubscription(subscription, of: user.id, at: now, limit: pushSubscriptionLimit)
    }

    func unsubscribe(_ user: User, endpoint: String) async throws {
        // No subscription has a NUL in its address (it was checked as a URL), and PostgreSQL
        // cannot even compare text holding one: there is nothing to delete.
        guard !endpoint.contains("\0") else { return }
        try await store.deletePushSubscription(endpoint: endpoint, of: user.id)
    }

    func devices(of user: User) async throws -> [PushDevice] {
        try await store.pushDevices(of: user.id)
    }

    /// The longest a reminder can be put off: to the same time tomorrow.
    static let longestSnooze = 1440

    /// Puts the user's reminders off for `minutes`; returns when the next one comes.
    func snooze(_ user: User, minutes: Int, now: Date) async throws -> Date {
        guard (1...Self.longestSnooze).contains(minutes) else {
            throw TallyError.invalid("Reminders can be put off for 1 to \(Self.longestSnooze) minutes, not \(minutes).", field: "minutes")
        }
        let until = now.addingTimeInterval(TimeInterval(minutes * 60))
        try await store.snoozeReminders(of: user.id, until: until)
        return until
    }

    /// Sends a reminder now to every device of the user; says how many push services took it.
    func test(_ user: User, now: Date) async throws -> PushTestResult {
        let subscriptions = try await store.pushSubscriptions(of: user.id)
        guard !subscriptions.isEmpty else {
            throw TallyError.conflict("No device of yours has notifications turned on: turn them on in Settings first.")
        }
        let sender = try await sender()
        // The reminder as it comes, buttons and all, for the person to try them.
        let reminder = PushSender.reminder(for: user, settings: try await store.settings(of: user.id))
        let sent = await sender.send(reminder, to: subscriptions, now: now, kind: .test)
        return PushTestResult(sent: sent, devices: subscriptions.count)
    }
}

extension PushSubscriptionBody {
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
