import Foundation
import TallyCore

// The bodies of the account, token, push and calendar routes.

public struct NewToken: Codable, Sendable {
    public var name: String
    /// Nil: the token never expires.
    public var expiresInDays: Int?
    /// Nil: write, everything the API does.
    public var scope: TokenScope?

    public init(name: String, expiresInDays: Int?, scope: TokenScope? = nil) {
        self.name = name
        self.expiresInDays = expiresInDays
        self.scope = scope
    }
}

public struct CreatedToken: Codable, Sendable {
    public var token: APITokenInfo
    /// Shown once: only its hash is kept.
    public var secret: String

    public init(token: APITokenInfo, secret: String) {
        self.token = token
        self.secret = secret
    }
}

public struct PasswordChange: Codable, Sendable {
    public var current: String
    public var new: String

    public init(current: String, new: String) {
        self.current = current
        self.new = new
    }
}

/// How many sessions a change of password or a "sign out elsewhere" ended.
public struct SignedOut: Codable, Sendable {
    public var signedOut: Int

    public init(signedOut: Int) {
        self.signedOut = signedOut
    }
}

public struct Me: Codable, Sendable {
    public var id: UUID
    public var name: String
    public var isAdmin: Bool

    public init(id: UUID, name: String, isAdmin: Bool) {
        self.id = id
        self.name = name
        self.isAdmin = isAdmin
    }
}

public struct CalendarLink: Codable, Sendable {
    /// Where the feed is, on this server: subscribe to it from a calendar app.
    public var path: String

    public init(path: String) {
        self.path = path
    }
}

public struct PushKey: Codable, Sendable {
    /// The server's VAPID public key, for PushManager.subscribe().
    public var publicKey: String

    public init(publicKey: String) {
        self.publicKey = publicKey
    }
}

/// A browser's push subscription, as PushSubscription.toJSON() gives it.
public struct PushSubscriptionBody: Codable, Sendable {
    public var endpoint: String
    /// When the push service ends the subscription, in ms since 1970; null for never. Read so
    /// that a browser's subscription is taken as it gives it, and not kept: a push service that
    /// ends one answers 404 or 410 to the next push, and it is dropped then.
    public var expirationTime: Double?
    public var keys: Keys

    public struct Keys: Codable, Sendable {
        public var p256dh: String
        public var auth: String
    }
}

public struct PushEndpointBody: Codable, Sendable {
    public var endpoint: String
}

/// The devices with notifications on, as the settings page lists them.
public struct PushDeviceList: Codable, Sendable {
    public var items: [PushDevice]

    public init(items: [PushDevice]) { self.items = items }
}

/// How long to put reminders off.
public struct SnoozeBody: Codable, Sendable {
    /// 1 to 1440.
    public var minutes: Int

    public init(minutes: Int) { self.minutes = minutes }
}

/// When the next reminder comes.
public struct SnoozeAnswer: Codable, Sendable {
    public var until: Date

    public init(until: Date) { self.until = until }
}

/// Whether you hear of the changes others make to a ledger.
public struct LedgerNotifications: Codable, Sendable, Equatable {
    public var changes: Bool

    public init(changes: Bool) { self.changes = changes }
}

/// A test reminder: how many push services took it, of how many devices.
public struct PushTestResult: Codable, Sendable {
    public var sent: Int
    public var devices: Int

    public init(sent: Int, devices: Int) {
        self.sent = sent
        self.devices = devices
    }
}
