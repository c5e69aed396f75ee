import Foundation
import Hummingbird
import TallyAPI
import TallyCore
import TallyRepositories
import TallyServices

/// A request of the API from someone signed in: every route under `/api/v1` has one, so a
/// handler never asks whether there is a user. Without a session or token the request stops
/// here with a 401 that says how to sign in.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let user: User
    /// The secret of the browser's session, when it signed in with one (not with a token).
    public let session: String?
    /// What the request's API token may do, and until when (nil for a session).
    public let token: TokenGrant?

    public init(context: TallyRequestContext) throws {
        guard let user = context.user else {
            throw TallyError(.unauthorized, "Sign in, or send a personal API token as \"Authorization: Bearer TOKEN\".")
        }
        coreContext = context.coreContext
        self.user = user
        session = context.session
        token = context.token
    }

    /// Refuses a route that the request's token may not use (see `TokenScope`).
    func permit<Body, Answer>(_ route: Route<Body, Answer>) throws {
        guard let token else { return }
        switch token.scope {
        case .write:
            return
        case .read:
            guard route.method != .get else { return }
            throw TallyError(.forbidden, "This token may only read: make one with the write scope to change anything.")
        case .drinks:
            guard !Self.drinkRoutes.contains(route.description) else { return }
            throw TallyError(.forbidden, "This token may only log drinks and read today's total: make one with the write scope for anything else.")
        }
    }

    /// What a `drinks` token may do: a phone's shortcut logs a drink and shows the day's total.
    static let drinkRoutes: Set<String> = [API.logDrink.description, API.today.description, API.me.description]

    /// API bodies are small: a drink, a setting. Anything bigger is a mistake or an attack.
    public var maxUploadSize: Int { Self.maxJSONSize }
    public static let maxJSONSize = 64 * 1024

    public var requestDecoder: JSONDecoder { APICoding.decoder }
    public var responseEncoder: WireEncoder { APICoding.encoder }
}
