import Foundation
import TallyCore

/// A person who keeps tallies.
public struct User: Codable, Equatable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    /// The language the person chose for Tally's pages (a BCP 47 tag such as "de"); nil for
    /// their browser's.
    public var language: String?

    public init(id: UUID = UUID(), name: String, createdAt: Date, language: String? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.language = language
    }
}

/// Users and their settings.
public protocol UserRepository: Sendable {
    /// Stores a new user with their settings and built-in drink kinds; a taken name is a conflict.
    func createUser(_ user: User, settings: HydrationSettings, kinds: [DrinkKind]) async throws
    func user(named name: String) async throws -> User?
    func user(id: UUID) async throws -> User?

    /// Keeps the language the person chose (nil: their browser's).
    func setLanguage(of user: UUID, to language: String?) async throws

    func settings(of user: UUID) async throws -> HydrationSettings
    /// Changes the user's settings in one write transaction: `change` gets them as they stand,
    /// and may refuse. Returns them as saved.
    func changeSettings(of user: UUID, _ change: @escaping @Sendable (inout HydrationSettings) throws -> Void) async throws -> HydrationSettings
}

extension UserRepository {
    public func saveSettings(_ settings: HydrationSettings, of user: UUID) async throws {
        _ = try await changeSettings(of: user) { $0 = settings }
    }
}
