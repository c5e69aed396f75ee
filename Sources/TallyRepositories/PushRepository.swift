import Foundation
import TallyCore

/// A browser's push subscription (RFC 8030): where to send, and the keys to encrypt for it.
public struct PushSubscription: Codable, Equatable, Sendable {
    public var endpoint: String
    /// The browser's P-256 public key, 65 bytes.
    public var p256dh: Data
    /// The browser's authentication secret, 16 bytes.
    public var auth: Data
    /// The device as its person recognises it ("Chrome on Android"), kept when it subscribed.
    public var device: String?

    public init(endpoint: String, p256dh: Data, auth: Data, device: String? = nil) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.device = device
    }
}

/// How a push service answered one message.
public enum PushOutcome: Sendable, Equatable {
    case delivered
    /// Not taken: the status, or "no answer".
    case failed(String)
    /// The push service says the subscription is gone (404, 410): nothing is sent to it again.
    case gone
}

/// Who may get a reminder now: a user with reminders on and somewhere to send them.
public struct ReminderRecipient: Sendable {
    public var user: User
    public var settings: HydrationSettings
    public var reminders: ReminderSettings
    public var subscriptions: [PushSubscription]
    /// Until when the person put reminders off ("Snooze 1 h"): none before, one at that time.
    public var snoozedUntil: Date?

    package init(user: User, settings: HydrationSettings, reminders: ReminderSettings, subscriptions: [PushSubscription],
                 snoozedUntil: Date? = nil) {
        self.user = user
        self.settings = settings
        self.reminders = reminders
        self.subscriptions = subscriptions
        self.snoozedUntil = snoozedUntil
    }
}

/// How many devices one person may have notifications on: each is a request the server makes
/// on every reminder.
public let pushSubscriptionLimit = 10

/// Push subscriptions, the server's keys, and the record of reminders sent (H11).
public protocol PushRepository: Sendable {
    /// The server's key called `name`, made by `make` and stored the first time: every
    /// instance on the database uses the same one.
    func serverKey(named name: String, orMake make: @escaping @Sendable () -> Data) async throws -> Data
    /// Stores a subscription for the user (an endpoint seen before moves to them), refused when
    /// they already have `limit` others.
    func savePushSubscription(_ subscription: PushSubscription, of user: UUID, at: Date, limit: Int) async throws
    /// Removes a subscription: the user's own (when `user` is given) or any.
    func deletePushSubscription(endpoint: String, of user: UUID?) async throws
    /// The user's subscriptions that still take notifications.
    func pushSubscriptions(of user: UUID) async throws -> [PushSubscription]
    /// Keeps how a push service answered: a delivery clears the failures, a failure counts one,
    /// and "gone" stops every send to it (the device stays listed, as gone, for a while).
    func recordPush(to endpoint: String, at: Date, outcome: PushOutcome) async throws
    /// The user's devices, gone ones included, oldest first.
    func pushDevices(of user: UUID) async throws -> [PushDevice]
    /// Forgets the devices whose push service said they were gone before `date`.
    func forgetGonePushDevices(before date: Date) async throws
    /// Puts the user's reminders off until `until` (none before it, one at it), or no longer.
    func snoozeReminders(of user: UUID, until: Date?) async throws
    /// Records that the reminder `key` is being sent. True only for the one caller that records
    /// it first: a reminder goes out once, however many servers share the database.
    func claimReminder(key: String, at: Date) async throws -> Bool
    /// Forgets the reminders sent before `date`, once no tick can send them again; returns how many.
    @discardableResult
    func forgetRemindersSent(before date: Date) async throws -> Int
    /// The users with reminders turned on and at least one subscription, disabled accounts left out.
    func reminderRecipients() async throws -> [ReminderRecipient]
    /// When the user last logged a drink, if ever.
    func lastDrink(of user: UUID) async throws -> Date?
}
