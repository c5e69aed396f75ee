import Foundation
import HTTPTypes
import Hummingbird
import TallyCore

/// What every web page handler shares: the checked form, the page context, the response.
enum Web {
    /// The posted form, refused unless it repeats the CSRF cookie.
    static func checkedForm(_ request: Request, _ context: TallyRequestContext, limit: Int? = nil) async throws -> FormFields {
        let form = try await FormFields.read(request, context, limit: limit)
        try checkCSRF(request, sent: form["csrf"])
        return form
    }

    /// Refuses a form whose CSRF token is not the one in the browser's cookie.
    static func checkCSRF(_ request: Request, sent: String?) throws {
        guard let cookie = request.cookies[Cookies.csrf]?.value, let sent, Cookies.constantTimeEqual(cookie, sent) else {
            throw HTTPError(.forbidden, message: "This form has expired; go back, reload the page and try again.")
        }
    }

    /// This server's address as the browser reached it, for links to copy (invites, calendars).
    static func origin(_ request: Request) -> String {
        "\(Cookies.isSecure(request) ? "https" : "http")://\(request.head.authority ?? "localhost")"
    }

    static func pageContext(_ request: Request, _ context: TallyRequestContext) -> PageContext {
        PageContext(user: context.user, csrf: context.csrf ?? "", path: request.uri.path)
    }

    static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: page.description)))
    }

    static func status(of error: TallyError?) -> HTTPResponse.Status {
        guard let error else { return .ok }
        return ProblemMiddleware<TallyRequestContext>.describe(error).0
    }

    /// A refusal about one field of a form, so that the page can show it at that field.
    struct FieldRefusal: Error {
        var field: String
        var error: TallyError

        /// Runs `body`, naming `field` in any refusal it throws.
        static func at<T>(_ field: String, _ body: () throws -> T) throws -> T {
            do {
                return try body()
            } catch let error as TallyError {
                throw FieldRefusal(field: field, error: error)
            }
        }
    }
}
