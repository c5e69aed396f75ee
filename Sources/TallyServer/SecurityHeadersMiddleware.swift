import HTTPTypes
import Hummingbird

/// The headers that keep a browser from being turned against the person using Tally, on every
/// answer: scripts, styles and everything else only from Tally itself (no inline script, so an
/// injected attribute or tag cannot run), no framing, no sniffing a download into a page, no
/// secret address (an invite, a calendar) leaked to another site in the Referer, and HTTPS only
/// once a browser has reached Tally over it.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext

    static let contentSecurityPolicy = policy(formActions: [])

    /// The policy, with forms also allowed to end up at `formActions` (origins such as
    /// "https://id.example.com"): a form's redirect to another site is held to `form-action` too.
    static func policy(formActions: [String]) -> String {
        "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action "
            + (["'self'"] + formActions).joined(separator: " ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // An answer with a stricter policy of its own (a receipt: `sandbox`) keeps it.
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        if context.origin.isSecure {
            response.headers[.strictTransportSecurity] = "max-age=31536000"
        }
        return response
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
