import Foundation
import Hummingbird
import TallyCore

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
            return Web.html(status == .notFound ? Self.notFound(page) : Self.failure(page, status: status, detail: detail), status: status)
        }
    }

    static func notFound(_ context: PageContext) -> HTML {
        Layout.page("Not found", context, """
        <h1>Not found</h1>
        <p>There is nothing at this address, or it is not yours to see.</p>
        <p><a href="\(SitePath.today.link)">Go to Today</a> · <a href="\(SitePath.spending.link)">Spending</a></p>
        """)
    }

    static func failure(_ context: PageContext, status: HTTPResponse.Status, detail: String) -> HTML {
        Layout.page(ProblemMiddleware<Context>.title(of: status), context, """
        <h1>\(ProblemMiddleware<Context>.title(of: status))</h1>
        <p>\(detail)</p>
        <p><a href="\(SitePath.today.link)">Go to Today</a></p>
        """)
    }
}
