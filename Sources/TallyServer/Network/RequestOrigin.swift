import Foundation
import HTTPTypes
import Hummingbird

/// Where the server is reached from outside, and whose word about it counts: `--public-url`
/// names the address people use (links in invites and calendars, `Secure` cookies), and the
/// forwarded headers of a TLS proxy count only from the `--trusted-proxy` addresses. With
/// neither, links are made from the request itself.
public struct PublicAddress: Sendable {
    /// "https://tally.example.com", without a trailing slash.
    public var url: String?
    public var trustedProxies: [String] { proxies.map(\.description) }
    let proxies: [IPNetwork]

    /// Links from the request, forwarded headers from no one.
    public init() {
        url = nil
        proxies = []
    }

    public init(url: String?, trustedProxies: [String]) throws {
        if let url {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), let host = parsed.host, !host.isEmpty,
                  parsed.query == nil, parsed.fragment == nil, ["", "/"].contains(parsed.path) else {
                throw PublicAddressError("The public URL must be http(s)://HOST[:PORT], such as https://tally.example.com; \"\(url)\" is not.")
            }
            self.url = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        proxies = try trustedProxies.map { text in
            guard let network = IPNetwork(text) else {
                throw PublicAddressError("A trusted proxy is an IP address or a range such as 10.0.0.0/8; \"\(text)\" is not.")
            }
            return network
        }
    }

    /// What the request says about itself, believed as far as it is trusted.
    func origin(of request: Request, peer: IPAddress?) -> RequestOrigin {
        let fromProxy = peer.map { peer in proxies.contains { $0.contains(peer) } } ?? false
        let forwarded = { (name: String) -> String? in
            guard fromProxy else { return nil }
            // The proxy nearest to us writes last.
            return request.headers[HTTPField.Name(name)!]?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces)
        }
        let client = forwarded("X-Forwarded-For").flatMap(IPAddress.init) ?? peer
        if let url {
            return RequestOrigin(isSecure: url.hasPrefix("https:"), origin: url, client: client)
        }
        let secure = request.uri.scheme == .https || forwarded("X-Forwarded-Proto") == "https"
        let host = forwarded("X-Forwarded-Host") ?? request.head.authority ?? "localhost"
        return RequestOrigin(isSecure: secure, origin: "\(secure ? "https" : "http")://\(host)", client: client)
    }
}

public struct PublicAddressError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// How one request reached the server.
public struct RequestOrigin: Sendable {
    /// Over TLS, to us or to a trusted proxy: cookies get `Secure`, answers HSTS.
    public var isSecure: Bool
    /// "https://tally.example.com": the start of links to copy (invites, calendars).
    public var origin: String
    /// The client's address: the connection's, or the one a trusted proxy forwarded.
    var client: IPAddress?

    static let unknown = RequestOrigin(isSecure: false, origin: "http://localhost", client: nil)
}

/// Works out the request's origin once, for the cookies, links and headers after it.
struct RequestOriginMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext
    let address: PublicAddress

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.origin = address.origin(of: request, peer: context.peer)
        return try await next(request, context)
    }
}
