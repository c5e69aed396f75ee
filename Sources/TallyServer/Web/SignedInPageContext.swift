import Foundation
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// What the web app's helpers read of a request's context, whoever asks: the forms' CSRF token,
/// the person if someone is signed in, how the request reached the server.
protocol WebRequestContext: RequestContext {
    /// Who asks, when someone is signed in.
    var visitor: User? { get }
    /// The browser's CSRF token, which its forms repeat (set by `CSRFCookieMiddleware`).
    var csrfToken: String { get }
    var origin: RequestOrigin { get }
}

extension TallyRequestContext: WebRequestContext {
    var visitor: User? { user }
    var csrfToken: String { csrf ?? "" }
}

/// A request for a page or form of someone signed in: most of the web app has one, so that a
/// handler never asks whether there is a user. Without a session the request stops here, and
/// `SignInRedirectMiddleware` sends the browser to sign in.
struct SignedInPageContext: ChildRequestContext, WebRequestContext {
    var coreContext: CoreRequestContextStorage
    let user: User
    let csrfToken: String
    /// The secret of the browser's session.
    let session: String?
    let origin: RequestOrigin

    /// Pages take a session only: an API token (a script's, or one copied from a phone) opens
    /// the API, never the web app and its admin pages.
    init(context: TallyRequestContext) throws {
        guard let user = context.user, context.credential == .session else { throw SignInRequired() }
        coreContext = context.coreContext
        self.user = user
        csrfToken = context.csrfToken
        session = context.session
        origin = context.origin
    }

    var visitor: User? { user }

    /// Forms are small: a drink, a setting. An import says how much more it takes.
    var maxUploadSize: Int { 64 * 1024 }
}

/// A page that needs someone signed in, asked without a session.
struct SignInRequired: Error {}

/// Answers a request that needs someone signed in, made without a session, with the sign-in
/// page (a redirect, as a browser follows it). Installed after `CSRFCookieMiddleware`, so that
/// even this answer gives a new browser its CSRF cookie.
struct SignInRedirectMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch is SignInRequired {
            // A ledger's invite link, opened by someone not signed in: one page to create an
            // account (or sign in) and join.
            if SitePath.invitation.matches(request.uri.path), let code = request.uri.path.split(separator: "/").last {
                return Web.redirect(SitePath.signUp.link + "?join=" + SitePath.encoded(String(code)))
            }
            // A new server has nobody to sign in: its first visitor makes the admin's account.
            return Web.redirect(try await accounts.awaitsFirstAccount() ? SitePath.signUp.link : SitePath.signIn.link)
        }
    }
}
