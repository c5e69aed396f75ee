import Foundation
import Hummingbird
import Logging
import NIOCore
import TallyAPI
import TallyCore
import TallyLanguages

/// Turns every error of the API into `application/problem+json` with a sentence a person can act
/// on, in the language the client asks for (Accept-Language; field names, codes and titles stay
/// English): the one place where TallyError kinds become HTTP statuses.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return Written.$current.withValue(Written(acceptLanguage: request.headers[.acceptLanguage])) {
                Self.response(for: error, at: request.uri.path, logger: context.logger)
            }
        }
    }

    /// The problem for `error` on a request for `path`, with Retry-After when the error says when.
    static func response(for error: any Error, at path: String, logger: Logger) -> Response {
        var (status, detail) = describe(error, logger: logger)
        // The router's own answer for an address it does not have.
        if let error = error as? HTTPError, error.status == .notFound, error.body == nil {
            detail = "There is nothing at \(path); the API's addresses are listed in /openapi.yaml."
        }
        return response(status: status, detail: Written.current.say(detail), retryAfter: (error as? TallyError)?.retryAfter, field: field(of: error))
    }

    /// The field of the body an error is about: the refusal's own, or where decoding stopped.
    static func field(of error: any Error) -> String? {
        switch error {
        case let error as TallyError: error.field
        case let error as DecodingError: path(of: error).map(APICoding.fieldName)
        default: nil
        }
    }

    /// `describe(_:)`, logging the errors that are the server's fault.
    static func describe(_ error: any Error, logger: Logger) -> (HTTPResponse.Status, Phrase) {
        let described = describe(error)
        if described.0 == .internalServerError {
            logger.error("request failed", metadata: ["error": "\(String(reflecting: error))"])
        }
        return described
    }

    static func response(status: HTTPResponse.Status, detail: String, retryAfter: Int? = nil, field: String? = nil) -> Response {
        let problem = Problem(title: title(of: status), status: status.code, detail: detail, field: field)
        let body = (try? APICoding.encoder.encode(problem)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if let retryAfter { headers[.retryAfter] = String(max(1, retryAfter)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The status's reason phrase, also for a status made from its code alone (which has none).
    static func title(of status: HTTPResponse.Status) -> String {
        guard status.reasonPhrase.isEmpty else { return status.reasonPhrase }
        let known: [HTTPResponse.Status] = [.badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .conflict,
                                            .contentTooLarge, .unsupportedMediaType, .tooManyRequests, .internalServerError,
                                            .serviceUnavailable]
        if let phrase = known.first(where: { $0.code == status.code })?.reasonPhrase { return phrase }
        return status.code == 507 ? "Insufficient Storage" : "Error \(status.code)"
    }

    /// The status and the sentence for `error`: a refusal's own, a body's decoding in words, and
    /// an HTTPError's message as it was written.
    static func describe(_ error: any Error) -> (HTTPResponse.Status, Phrase) {
        switch error {
        case let error as TallyError:
            StorageFaults.record(error)
            return (HTTPResponse.Status(code: Problem.status(of: error.kind)), error.phrase)
        case let error as DecodingError:
            return (.badRequest, phrase(of: error))
        case let error as StatusRefusal:
            return (error.status, error.phrase)
        case is NIOTooManyBytesError:
            return (.contentTooLarge, "The request body is too large.")
        case let error as HTTPError:
            switch error.status {
            case .contentTooLarge: return (error.status, error.body.map(Phrase.verbatim) ?? "The request body is too large.")
            default: return (error.status, error.body.map(Phrase.verbatim) ?? .verbatim(error.status.reasonPhrase))
            }
        default:
            return (.internalServerError, "Something went wrong on the server; try again, and report it if it keeps happening.")
        }
    }

    /// Which field was wrong and how, as a phrase.
    static func phrase(of error: DecodingError) -> Phrase {
        func field(_ path: [any CodingKey]) -> Phrase {
            let name = APICoding.fieldName(path)
            return name.isEmpty ? Phrase("The body") : Phrase("The field \(name)")
        }
        switch error {
        case .typeMismatch(let type, let context):
            return Phrase("\(field(context.codingPath)) must be \(kind(of: type)).")
        case .valueNotFound(let type, let context):
            return Phrase("\(field(context.codingPath)) must be \(kind(of: type)), not null.")
        case .keyNotFound(let key, let context):
            return Phrase("\(field(context.codingPath + [key])) is required.")
        case .dataCorrupted(let context):
            if context.underlyingError != nil || context.codingPath.isEmpty { return Phrase("The body is not valid JSON.") }
            // The decoder's own words (a type's init(from:) says what it takes).
            let reason = context.debugDescription.hasSuffix(".") ? context.debugDescription : context.debugDescription + "."
            return Phrase("\(field(context.codingPath)) is not valid: \(reason)")
        @unknown default:
            return Phrase("The body could not be read.")
        }
    }

    /// Where in the body decoding stopped; nil for the body as a whole.
    private static func path(of error: DecodingError) -> [any CodingKey]? {
        let path: [any CodingKey] = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context): context.codingPath
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .dataCorrupted(let context): context.underlyingError == nil ? context.codingPath : []
        @unknown default: []
        }
        return path.isEmpty ? nil : path
    }

    private static func kind(of type: Any.Type) -> Phrase {
        switch type {
        case is Double.Type, is Int.Type, is Int64.Type, is Float.Type: return Phrase("a number")
        case is String.Type: return Phrase("a string")
        case is Bool.Type: return Phrase("true or false")
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") { return Phrase("an object") }
            return name.hasPrefix("Array") ? Phrase("a list") : Phrase("an object")
        }
    }
}

/// A refusal whose status no TallyError kind has (413, 415, 507 for an upload), with its sentence
/// as a phrase, so that the API and the pages say it in the reader's language as any other.
extension Request {
    /// The whole body, refused (413) as soon as more than `limit` bytes of it have come, with
    /// the limit said in the refusal.
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw StatusRefusal.tooLarge(limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw StatusRefusal.tooLarge(limit)
        }
    }
}

struct StatusRefusal: Error {
    let status: HTTPResponse.Status
    let phrase: Phrase

    init(_ status: HTTPResponse.Status, _ phrase: Phrase) {
        self.status = status
        self.phrase = phrase
    }

    /// A body over `limit` bytes: the limit in whole KiB or MiB (rounded down: what it says fits).
    static func tooLarge(_ limit: Int) -> StatusRefusal {
        let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"
        return StatusRefusal(.contentTooLarge, Phrase("The request body is too large; send at most \(size)."))
    }
}
