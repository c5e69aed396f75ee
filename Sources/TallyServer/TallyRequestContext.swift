import Foundation
import Hummingbird
import NIOCore
import TallyCore
import TallyStore

/// What a request carries through the server: who sent it, and how they proved it.
public struct TallyRequestContext: RequestContext {
    public enum Credential: Sendable {
        /// A browser's session cookie: unsafe requests must also carry the CSRF token.
        case session
        /// A personal API token in the Authorization header.
        case apiToken
    }

    public var coreContext: CoreRequestContextStorage
    public var user: User?
    public var credential: Credential?
    /// The browser's CSRF token, for the forms of a page: bound to its session when signed in,
    /// else from its cookie (or new).
    public var csrf: String?
    /// The secret of the browser's session, when it is signed in with one.
    public var session: String?
    /// How the request reached the server (set by `RequestOriginMiddleware`).
    public var origin = RequestOrigin.unknown
    /// The address at the other end of the connection.
    let peer: IPAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress.flatMap(IPAddress.init)
    }

    /// API bodies are small: a drink, a setting. Anything bigger is a mistake or an attack.
    public var maxUploadSize: Int { 64 * 1024 }

    /// An export file brought in to import (S6): years of a shared ledger fit easily.
    public static let maxImportSize = 4 * 1024 * 1024

    public var requestDecoder: JSONDecoder { JSONCoding.decoder }
    public var responseEncoder: JSONEncoder { JSONCoding.encoder }

    /// The signed-in user, or a 401 that says how to sign in.
    public func requireUser() throws -> User {
        guard let user else {
            throw HTTPError(.unauthorized, message: "Sign in, or send a personal API token as \"Authorization: Bearer TOKEN\".")
        }
        return user
    }
}

/// The JSON of the API: ISO 8601 dates, keys sorted for stable output.
enum JSONCoding {
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        // ISO 8601 with or without fractional seconds, as browsers' toISOString() writes them.
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = InternetTime.instant(text) { return date }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "\(text) is not an ISO 8601 time such as 2025-03-30T08:15:00Z."))
        }
        return decoder
    }()

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
