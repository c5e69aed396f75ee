import Foundation
import Hummingbird
import NIOCore
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

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
    /// What the request's API token may do, and until when (nil for a session).
    public var token: TokenGrant?
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

    public var requestDecoder: JSONDecoder { APICoding.decoder }
    public var responseEncoder: WireEncoder { APICoding.encoder }
}
