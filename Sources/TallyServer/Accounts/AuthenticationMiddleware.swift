import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyRepositories
import TallyServices

/// Finds who sent a request: a personal API token in the Authorization header, else the session
/// cookie of the web app (the web app's pages take the cookie only: `acceptsTokens` false). It
/// never refuses a request itself: handlers that need a user ask `SignedInContext`, which
/// refuses a request without one.
///
/// A token seen lately (`KnownTokens`) costs no read of its own: it is checked again in the
/// first transaction the request opens (`TokenAdmission`), or, when the request opened none,
/// after it, and the answer is then a 401 whatever the handler said.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext
    let accounts: AccountService
    var acceptsTokens = true

    static let invalidToken = TallyError(.unauthorized, "That API token is not valid: it may have been revoked. Create a new one with `tally token create`.")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if acceptsTokens, let authorization = request.headers[.authorization] {
            guard authorization.hasPrefix("Bearer ") else { throw Self.invalidToken }
            let secret = String(authorization.dropFirst("Bearer ".count))
            let tokenHash = AccountService.hash(secret)
            let now = accounts.clock.now
            context.credential = .apiToken
            if let (holder, grant) = accounts.knownTokens.holder(of: tokenHash, at: now) {
                context.user = holder
                context.token = grant
                let admission = TokenAdmission(tokenHash: tokenHash, user: holder.id, now: now)
                // An upload is only taken in for a token checked first.
                if Self.mayBeUpload(request) { try await settle(admission) }
                return try await admitted(admission, request, context, next)
            }
            guard let (user, grant) = try await accounts.holder(ofAPIToken: secret) else {
                throw Self.invalidToken
            }
            accounts.knownTokens.remember(tokenHash, holder: user, grant: grant, at: now)
            context.user = user
            context.token = grant
        } else if let session = request.cookies[Cookies.session]?.value,
                  let user = try await accounts.user(forSession: session) {
            context.user = user
            context.credential = .session
            context.session = session
            context.csrf = try await accounts.csrfToken(forSession: session)
        }
        return try await next(request, context)
    }

    /// A body bigger than any JSON request's, or of a length not given.
    static func mayBeUpload(_ request: Request) -> Bool {
        guard let length = request.headers[.contentLength] else { return request.headers[.transferEncoding] != nil }
        return Int(length).map { $0 > SignedInContext.maxJSONSize } ?? true
    }

    /// A known token's request, with its admission for the stores to check.
    private func admitted(_ admission: TokenAdmission, _ request: Request, _ context: Context,
                          _ next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await TokenAdmission.$current.withValue(admission) { try await next(request, context) }
        } catch {
            try await settle(admission)
            throw error
        }
        try await settle(admission)
        return response
    }

    /// Refuses the request if its token no longer admits its holder, checking it now if no
    /// transaction of the request did.
    private func settle(_ admission: TokenAdmission) async throws {
        do {
            if admission.checked == .unchecked { try await accounts.store.admit(admission) }
            if admission.checked == .admitted { return }
        } catch is TokenAdmission.Refused {}
        accounts.knownTokens.forget(admission.tokenHash)
        throw Self.invalidToken
    }
}

/// Requests made with a session cookie that change something must prove they come from Tally's
/// own pages: the session's CSRF token (an HMAC of the session, which only its pages carry) in
/// the X-CSRF-Token header. The cookies are also SameSite=Lax.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext
    static let header = HTTPField.Name("X-CSRF-Token")!
    static let safe: Set<HTTPRequest.Method> = [.get, .head, .options]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.credential == .session, !Self.safe.contains(request.method) {
            guard let expected = context.csrf, let sent = request.headers[Self.header],
                  Cookies.constantTimeEqual(expected, sent) else {
                throw TallyError(.forbidden, "This request lacks its CSRF token; reload the page and try again.")
            }
        }
        return try await next(request, context)
    }
}

/// The cookies of the web app.
enum Cookies {
    static let session = "tally_session"
    static let csrf = "tally_csrf"

    /// A cookie as Tally sets them: HttpOnly, SameSite=Lax, Secure when the request came over TLS
    /// (`RequestOrigin.isSecure`).
    static func make(_ name: String, value: String, maxAge: Int?, secure: Bool) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
