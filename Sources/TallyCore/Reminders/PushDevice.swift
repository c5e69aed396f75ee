import Foundation

/// A device a person turned notifications on for, and how its deliveries went: what the
/// settings page shows so that a reminder that stopped arriving does not go unnoticed.
public struct PushDevice: Codable, Sendable, Equatable {
    public var endpoint: String
    public var device: String?
    public var subscribedAt: Date
    public var lastDeliveredAt: Date?
    public var lastFailedAt: Date?
    /// The push service's status, "no answer", or "gone".
    public var lastFailure: String?
    /// Failures since the last delivery.
    public var failures: Int
    /// When its push service said it is gone; it is kept a while so that the page can say so.
    public var goneAt: Date?

    package init(endpoint: String, device: String?, subscribedAt: Date, lastDeliveredAt: Date?, lastFailedAt: Date?,
                 lastFailure: String?, failures: Int, goneAt: Date?) {
        self.endpoint = endpoint
        self.device = device
        self.subscribedAt = subscribedAt
        self.lastDeliveredAt = lastDeliveredAt
        self.lastFailedAt = lastFailedAt
        self.lastFailure = lastFailure
        self.failures = failures
        self.goneAt = goneAt
    }
}
