import Foundation
import Hummingbird
import TallyCore
import TallyLanguages

/// What a request that failed gets: under /api/ a problem+json, elsewhere a page that says what
/// happened, so that no address answers a bare error or a 500 to input it does not know. An
/// unknown address, and a ledger or entry that is not the person's, get the same 404 page: the
/// answer must not tell a foreign id from one that does not exist.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if request.uri.path.hasPrefix("/api/") {
                return ProblemMiddleware<Context>.response(for: error, at: request.uri.path, logger: context.logger)
            }
            let (status, detail) = ProblemMiddleware<Context>.describe(error, logger: context.logger)
            let page = PageContext(user: nil, csrf: "", path: request.uri.path)
            // Outside the web app's WrittenMiddleware: in the browser's language.
            return Written.$current.withValue(Written(acceptLanguage: request.headers[.acceptLanguage])) {
                Web.html(status == .notFound ? Self.notFound(page) : Self.failure(page, status: status, detail: t(detail)), status: status)
            }
        }
    }

    static func notFound(_ context: PageContext) -> HTML {
        Layout.page(t("Not found"), context, """
        <h1>\(t("Not found"))</h1>
        <p>\(t("There is nothing at this address, or it is not yours to see."))</p>
        <p><a href="\(SitePath.today.link)">\(t("Go to Today"))</a> · <a href="\(SitePath.spending.link)">\(t("Spending"))</a></p>
        """)
    }

    /// `detail` is in the reader's language already.
    static func failure(_ context: PageContext, status: HTTPResponse.Status, detail: String) -> HTML {
        let title = title(of: status)
        return Layout.page(title, context, """
        <h1>\(title)</h1>
        <p>\(detail)</p>
        <p><a href="\(SitePath.today.link)">\(t("Go to Today"))</a></p>
        """)
    }

    /// The status's name for a person, in their language.
    static func title(of status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: t("Bad Request")
        case 401: t("Unauthorized")
        case 403: t("Forbidden")
        case 404: t("Not Found")
        case 405: t("Method Not Allowed")
        case 409: t("Conflict")
        case 413: t("Content Too Large")
        case 415: t("Unsupported Media Type")
        case 429: t("Too Many Requests")
        case 500: t("Internal Server Error")
        case 503: t("Service Unavailable")
        case 507: t("Insufficient Storage")
        default: t("Error \(status.code)")
        }
    }
}
