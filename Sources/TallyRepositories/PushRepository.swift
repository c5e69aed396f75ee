import Foundation
import TallyCore

/// A browser's push subscription (RFC 8030): where to send, and the keys to encrypt for it.
public struct PushSubscription: Codable, Equatable, Sendable {
    public var endpoint: String
    /// The browser's P-256 public key, 65 bytes.
    public var p256dh: Data
    /// The browser's authentication secret, 16 bytes.
    public var auth: Data

    public init(endpoint: String, p256dh: Data, auth: Data) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// Who may get a reminder now: a user with reminders on and somewhere to send them.
public struct ReminderRecipient: Sendable {
    public var user: User
    public var settings: HydrationSettings
    public var reminders: ReminderSettings
    public var subscriptions: [PushSubscription]

    package init(user: User, settings: HydrationSettings, reminders: ReminderSettings, subscriptions: [PushSubscription]) {
        self.user = user
        self.settings = settings
        self.reminders = reminders
        self.subscriptions = subscriptions
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
    /// Removes a subscription: the user's own (when `user` is given) or any (the push service
    /// said it is gone).
    func deletePushSubscription(endpoint: String, of user: UUID?) async throws
    func pushSubscriptions(of user: UUID) async throws -> [PushSubscription]
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
