import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import TallyCore
import TallyLanguages
import TallyRepositories
import TallyServices

/// What every web page handler shares: the checked form, the page context, the response.
enum Web {
    /// The posted form, refused unless it repeats the CSRF cookie.
    static func checkedForm(_ request: Request, _ context: some WebRequestContext, limit: Int? = nil) async throws -> FormFields {
        let form = try await FormFields.read(request, context, limit: limit)
        try checkCSRF(context, sent: form["csrf"])
        return form
    }

    /// Refuses a form whose CSRF token is not the browser's: its session's, or (signed out) the
    /// one in its cookie.
    static func checkCSRF(_ context: some WebRequestContext, sent: String?) throws {
        let expected = context.csrfToken
        guard !expected.isEmpty, let sent, Cookies.constantTimeEqual(expected, sent) else {
            throw HTTPError(.forbidden, message: t("This form has expired; go back, reload the page and try again."))
        }
    }

    static func pageContext(_ request: Request, _ context: some WebRequestContext) -> PageContext {
        PageContext(user: context.visitor, csrf: context.csrfToken, path: request.uri.path)
    }

    /// The answer to a form that is done: the browser goes to `link` (and a reload there does
    /// not post the form again).
    static func redirect(_ link: String) -> Response {
        Response.redirect(to: link, type: .normal)
    }

    /// What every form does: it is checked (its CSRF token) before anything else; `act` then does
    /// what it asks and answers, mostly with a redirect. A refusal, of the form or of one of its
    /// fields (the error's `field`), shows the page again with it: `refused`'s answer.
    static func formAction(_ request: Request, _ context: some WebRequestContext, limit: Int? = nil,
                           _ act: (FormFields) async throws -> Response,
                           refused: (FormFields, Refusal) async throws -> Response) async throws -> Response {
        let form = try await checkedForm(request, context, limit: limit)
        do {
            return try await act(form)
        } catch let error as TallyError {
            return try await refused(form, Refusal(error: error))
        }
    }

    /// Why a form was refused, and the field it is about when it is about one: the form's inputs
    /// are named as the API's bodies name their fields, so a refusal of the service is shown at
    /// its input.
    struct Refusal {
        var error: TallyError
        var field: String? { error.field }

        /// The sentence for the top of the page, in the reader's language: nil when one of
        /// `marked`, the fields the page shows a refusal at, says it there; any other refusal is
        /// said at the top.
        func banner(besides marked: Set<String>) -> String? {
            field.map(marked.contains) == true ? nil : error.said
        }
    }

    /// Names whose page a response is, without saying who: the service worker keeps the pages of
    /// one person only and drops them when a page of someone else arrives (a shared device).
    static let pageOwnerHeader = HTTPField.Name("Tally-Page-Owner")!

    /// A stable value per person that cannot be traced back to them (the id is random, and hashed).
    static func pageOwner(_ user: User) -> String {
        digest(Data("tally-page-owner:\(user.id.uuidString)".utf8), bytes: 16)
    }

    /// The first `bytes` bytes of the SHA-256 of `data`, in hex.
    static func digest(_ data: some DataProtocol, bytes: Int) -> String {
        SHA256.hash(data: data).prefix(bytes).map { String(format: "%02x", $0) }.joined()
    }

    static func html(_ page: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: page.description)))
    }

    static func status(of error: TallyError?) -> HTTPResponse.Status {
        guard let error else { return .ok }
        return ProblemMiddleware<TallyRequestContext>.describe(error).0
    }
}
