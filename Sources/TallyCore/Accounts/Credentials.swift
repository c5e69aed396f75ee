import Foundation

/// A signed-in browser as listed: its id is derived from the session's hash, never the secret.
public struct SessionInfo: Codable, Equatable, Sendable {
    public var id: String
    public var device: String
    public var createdAt: Date
    public var lastSeenAt: Date?
    public var expiresAt: Date

    public init(id: String, device: String, createdAt: Date, lastSeenAt: Date?, expiresAt: Date) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
    }

    /// The listed id of a session: the first bytes of its hash, which say nothing of the secret.
    public static func id(of tokenHash: Data) -> String {
        tokenHash.prefix(8).map { String(format: "%02x", $0) }.joined()
    }
}

/// A personal API token as listed: never the token itself, which is shown once and stored hashed.
public struct APITokenInfo: Codable, Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var revokedAt: Date?
    public var expiresAt: Date?
    public var lastUsedAt: Date?

    public init(id: UUID, name: String, createdAt: Date, revokedAt: Date? = nil, expiresAt: Date? = nil, lastUsedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }
}
