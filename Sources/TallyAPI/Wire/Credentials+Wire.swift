import Foundation
import TallyCore

// Sessions and API tokens as the account routes list them.

extension SessionInfo: Codable {
    private enum Keys: String, CodingKey { case id, device, createdAt, lastSeenAt, expiresAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(id: try c.decode(String.self, forKey: .id), device: try c.decode(String.self, forKey: .device),
                  createdAt: try c.decode(Date.self, forKey: .createdAt), lastSeenAt: try c.decodeIfPresent(Date.self, forKey: .lastSeenAt),
                  expiresAt: try c.decode(Date.self, forKey: .expiresAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(device, forKey: .device)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(lastSeenAt, forKey: .lastSeenAt)
        try c.encode(expiresAt, forKey: .expiresAt)
    }
}

extension APITokenInfo: Codable {
    private enum Keys: String, CodingKey { case id, name, scope, createdAt, revokedAt, expiresAt, lastUsedAt }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(id: try c.decode(UUID.self, forKey: .id), name: try c.decode(String.self, forKey: .name),
                  scope: try c.decode(TokenScope.self, forKey: .scope), createdAt: try c.decode(Date.self, forKey: .createdAt),
                  revokedAt: try c.decodeIfPresent(Date.self, forKey: .revokedAt),
                  expiresAt: try c.decodeIfPresent(Date.self, forKey: .expiresAt),
                  lastUsedAt: try c.decodeIfPresent(Date.self, forKey: .lastUsedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(scope, forKey: .scope)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encodeIfPresent(revokedAt, forKey: .revokedAt)
        try c.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try c.encodeIfPresent(lastUsedAt, forKey: .lastUsedAt)
    }
}
