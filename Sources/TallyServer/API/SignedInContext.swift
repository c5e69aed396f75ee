import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyStore

/// A request of the API from someone signed in: every route under `/api/v1` has one, so a
/// handler never asks whether there is a user. Without a session or token the request stops
/// here with a 401 that says how to sign in.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let user: User
    /// The secret of the browser's session, when it signed in with one (not with a token).
    public let session: String?

    public init(context: TallyRequestContext) throws {
        guard let user = context.user else {
            throw HTTPError(.unauthorized, message: "Sign in, or send a personal API token as \"Authorization: Bearer TOKEN\".")
        }
        coreContext = context.coreContext
        self.user = user
        session = context.session
    }

    /// API bodies are small: a drink, a setting. Anything bigger is a mistake or an attack.
    public var maxUploadSize: Int { Self.maxJSONSize }
    public static let maxJSONSize = 64 * 1024

    public var requestDecoder: JSONDecoder { APICoding.decoder }
    public var responseEncoder: JSONEncoder { APICoding.encoder }
}
