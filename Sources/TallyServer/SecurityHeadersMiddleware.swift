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

    /// The fields, made once: each field made on a request had its value checked byte by byte.
    private static let fields = (
        policy: HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
        noSniffing: HTTPField(name: .xContentTypeOptions, value: "nosniff"),
        referrer: HTTPField(name: .referrerPolicy, value: "same-origin"),
        httpsOnly: HTTPField(name: .strictTransportSecurity, value: "max-age=31536000")
    )

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        // An answer with a stricter policy of its own (a receipt: `sandbox`) keeps it.
        Self.set(Self.fields.policy, in: &response.headers, unlessThere: true)
        Self.set(Self.fields.noSniffing, in: &response.headers)
        Self.set(Self.fields.referrer, in: &response.headers)
        if context.origin.isSecure {
            Self.set(Self.fields.httpsOnly, in: &response.headers)
        }
        return response
    }

    /// `field` in `headers`, in place of any field of its name; with `unlessThere`, one already there stays.
    private static func set(_ field: HTTPField, in headers: inout HTTPFields, unlessThere: Bool = false) {
        if headers.contains(field.name) {
            if unlessThere { return }
            headers[fields: field.name] = [field]
        } else {
            headers.append(field)
        }
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
