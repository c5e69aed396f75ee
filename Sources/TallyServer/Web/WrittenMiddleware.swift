import Hummingbird
import TallyCore
import TallyLanguages

/// Answers each web page in the reader's language: the one their account keeps, else their
/// browser's (Accept-Language), else English; `Written.current` for the request.
struct WrittenMiddleware: RouterMiddleware {
    typealias Context = TallyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let chosen = context.user?.language.flatMap(Language.matching)
        return try await Written.$current.withValue(Written(chosen: chosen, acceptLanguage: request.headers[.acceptLanguage])) {
            try await next(request, context)
        }
    }
}

/// The phrase in the language of the page being written: `t("Today's drinks")`.
func t(_ phrase: Phrase) -> String { Written.current.say(phrase) }

/// The phrase's form for its count: `t(one: "\(n) drink", other: "\(n) drinks")`.
func t(one: Phrase, other: Phrase) -> String { Written.current.say(Phrase(one: one, other: other)) }

extension TallyError {
    /// The refusal's sentence in the language of the page being written.
    var said: String { Written.current.say(phrase) }
}
