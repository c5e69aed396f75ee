import Hummingbird
import TallyCore

/// Answers a request for an address the server has, made with a method that address does not
/// take, with 405 and the methods it does take in `Allow` (RFC 9110 §15.5.6). The router alone
/// answers 404, which tells a client the address does not exist: the wrong thing to fix.
///
/// It is installed after every route, so that it wraps only the router's not-found responder and
/// sees nothing but the requests no route took.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each address pattern the router has, with the methods it takes there.
    private let addresses: [(path: RouterPath, methods: [HTTPRequest.Method])]

    init(routes: [Router<Context>.RouteDescription]) {
        let methods = Dictionary(grouping: routes, by: \.path.description)
        addresses = methods.values.map { routes in
            (routes[0].path, routes.map(\.method).sorted { $0.rawValue < $1.rawValue })
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let allowed = methods(at: request.uri.path) else {
            return try await next(request, context)
        }
        let list = allowed.map(\.rawValue)
        let detail = Phrase("The address \(request.uri.path) takes \(Self.sentence(list)) requests, not \(request.method.rawValue).")
        var response = ProblemMiddleware<Context>.response(status: .methodNotAllowed, detail: detail.description)
        response.headers[.allow] = list.joined(separator: ", ")
        return response
    }

    /// The methods of the address pattern that `path` falls under, or nil when there is none.
    /// Where two patterns match (`ledgers/join` and `ledgers/:ledger`), the router takes the
    /// one with fixed text first, so the answer names that one's methods.
    func methods(at path: String) -> [HTTPRequest.Method]? {
        let components = path.split(separator: "/")
        return addresses
            .compactMap { address in Self.specificity(of: address.path, matching: components).map { ($0, address.methods) } }
            .max { $0.0.lexicographicallyPrecedes($1.0) }?
            .1
    }

    /// How closely `pattern` matches `components`, one rank per component (fixed text above
    /// a parameter above a wildcard), or nil when it does not match them.
    static func specificity(of pattern: RouterPath, matching components: [Substring]) -> [Int]? {
        var ranks: [Int] = []
        for (index, element) in pattern.components.enumerated() {
            if element == .recursiveWildcard { return ranks + [0] }
            guard index < components.count, element ~= components[index] else { return nil }
            ranks.append(element == components[index] ? 2 : element == .wildcard ? 0 : 1)
        }
        return ranks.count == components.count ? ranks : nil
    }

    /// "GET", "GET or PATCH", "DELETE, GET or PATCH".
    private static func sentence(_ words: [String]) -> Phrase {
        guard words.count > 1 else { return .verbatim(words.first ?? "") }
        return Phrase("\(words.dropLast().joined(separator: ", ")) or \(words[words.count - 1])")
    }
}
