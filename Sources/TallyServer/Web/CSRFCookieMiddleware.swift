import Foundation
import Hummingbird
import TallyLanguages
import TallyRepositories
import TallyServices

/// Gives a browser that is not signed in a CSRF token in a cookie, for the sign-in and sign-up
/// forms to repeat (a signed-in browser's token is bound to its session, see
/// `AuthenticationMiddleware`), and marks whose page each answer is (`Web.pageOwnerHeader`).
struct CSRFCookieMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var response: Response
        if context.csrf != nil {
            response = try await next(request, context)
        } else if let existing = request.cookies[Cookies.csrf]?.value {
            context.csrf = existing
            response = try await next(request, context)
        } else {
            let token = AccountService.newSecret()
            context.csrf = token
            response = try await next(request, context)
            response.setCookie(Cookies.make(Cookies.csrf, value: token, maxAge: nil, secure: context.origin.isSecure))
        }
        if let user = context.user { response.headers[Web.pageOwnerHeader] = Web.pageOwner(user) }
        return response
    }
}
