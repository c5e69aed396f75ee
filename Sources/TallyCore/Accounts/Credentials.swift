import Foundation

/// A signed-in browser as listed: its id is derived from the session's hash, never the secret.
public struct SessionInfo: Equatable, Sendable {
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

/// What a personal API token may do (A1). Every token reads what its holder reads, except
/// `drinks`, which a phone's shortcut is given: it logs drinks and reads today, nothing else.
public enum TokenScope: String, Codable, Sendable, CaseIterable {
    /// Reads everything its holder can; changes nothing.
    case read
    /// Everything the API does for its holder (what every token made before scopes can do).
    case write
    /// Logs drinks and reads today's total.
    case drinks

    /// Whether a token of this scope may make every request one of `other` may.
    public func covers(_ other: TokenScope) -> Bool {
        self == other || self == .write
    }
}

/// A personal API token as listed: never the token itself, which is shown once and stored hashed.
public struct APITokenInfo: Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var scope: TokenScope
    public var createdAt: Date
    public var revokedAt: Date?
    public var expiresAt: Date?
    public var lastUsedAt: Date?

    public init(id: UUID, name: String, scope: TokenScope = .write, createdAt: Date, revokedAt: Date? = nil, expiresAt: Date? = nil,
                lastUsedAt: Date? = nil) {
        self.id = id
        self.scope = scope
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.expiresAt = expiresAt
        self.lastUsedAt = lastUsedAt
    }
}
