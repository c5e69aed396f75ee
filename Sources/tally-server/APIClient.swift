import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFileSystem
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import NIOSSL
import TallyAPI
import TallyCommands
import TallyCore

/// Sends requests to a Tally server's API with a personal API token, and turns its problems
/// into TallyErrors (the status gives the kind, `detail` the sentence) so that the CLI reports
/// them exactly as it reports the local service's.
struct APIClient: Sendable {
    /// As the user wrote it, without trailing slashes: messages name it.
    let server: String
    let token: String
    private let base: URL

    init(server: String, token: String) throws {
        var trimmed = server.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw TallyError.invalid(
                "\"\(server)\" is not a server address such as https://tally.example.com or http://127.0.0.1:8080.")
        }
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw TallyError(.unauthorized, "That API token is not valid: a token is one word such as tally_…; create one with `tally token create`.")
        }
        self.server = trimmed
        self.token = token
        self.base = url
    }

    /// Requests answered quickly or not at all: a CLI should not hang on a dead server.
    static let timeout: TimeInterval = 30

    /// A JSON route: its body out, its answer back.
    func send<Body: Encodable, Answer: Decodable>(_ route: Route<Body, Answer>, _ parameters: any CustomStringConvertible...,
                                                  query: [URLQueryItem] = [], body: Body) async throws -> Answer {
        try await answer(route, parameters, query: query, body: .data(try APICoding.encoder.encode(body)))
    }

    /// A JSON route without a body.
    func send<Answer: Decodable>(_ route: Route<NoBody, Answer>, _ parameters: any CustomStringConvertible...,
                                 query: [URLQueryItem] = []) async throws -> Answer {
        try await answer(route, parameters, query: query, body: nil)
    }

    /// A route whose body is a file: `data` from memory, or `file` streamed from disk.
    func upload<Answer: Decodable>(_ route: Route<FileBody, Answer>, _ parameters: any CustomStringConvertible...,
                                   data: Data? = nil, file: URL? = nil, query: [URLQueryItem] = [],
                                   contentType: String, timeout: TimeInterval = Self.timeout) async throws -> Answer {
        let body: RequestBody = file.map { .file($0) } ?? .data(data ?? Data())
        let answer = try await exchange(route.method.rawValue, route.path(parameters), query: query, body: body, contentType: contentType,
                                        timeout: timeout) { try await $0.body.collect(upTo: Self.answerLimit) }
        return try decode(answer, of: route)
    }

    /// A route whose answer is a file: handed to `write` a piece at a time, as it arrives. Returns
    /// the media type the answer's `Content-Type` gives, when it gives one.
    @discardableResult
    func download(_ route: Route<NoBody, FileBody>, _ parameters: any CustomStringConvertible..., query: [URLQueryItem] = [],
                  to write: (Data) async throws -> Void) async throws -> String? {
        try await exchange(route.method.rawValue, route.path(parameters), query: query, contentType: "application/json",
                           timeout: Self.timeout * 10) { response in
            for try await piece in response.body { try await write(Data(buffer: piece, byteTransferStrategy: .noCopy)) }
            return response.headers.first(name: "Content-Type")
        }
    }

    private func answer<Body, Answer: Decodable>(_ route: Route<Body, Answer>, _ parameters: [any CustomStringConvertible],
                                                 query: [URLQueryItem], body: RequestBody?) async throws -> Answer {
        let data = try await exchange(route.method.rawValue, route.path(parameters), query: query, body: body,
                                      contentType: "application/json") { try await $0.body.collect(upTo: Self.answerLimit) }
        return try decode(data, of: route)
    }

    private func decode<Body, Answer: Decodable>(_ answer: ByteBuffer, of route: Route<Body, Answer>) throws -> Answer {
        if Answer.self == NoBody.self { return NoBody() as! Answer }
        do {
            return try APICoding.decoder.decode(Answer.self, from: Data(buffer: answer, byteTransferStrategy: .noCopy))
        } catch {
            throw RemoteFailure(
                Phrase("The server at \(server) answered \(route) with a body this tally cannot read: check that it is a Tally server of this version."))
        }
    }

    /// The most a JSON answer may hold: a year of history is well under a megabyte.
    private static let answerLimit = 64 << 20

    /// What a request sends: bytes from memory, or a file streamed from disk (an export to import).
    private enum RequestBody {
        case data(Data)
        case file(URL)
    }

    /// One request; once its answer is a success, `read` reads the answer (its body, its headers).
    private func exchange<Result>(_ method: String, _ path: String, query: [URLQueryItem] = [], body: RequestBody? = nil,
                                  contentType: String, timeout: TimeInterval = Self.timeout,
                                  read: (HTTPClientResponse) async throws -> Result) async throws -> Result {
        var components = URLComponents(url: base.appendingPathComponent("api/v1/" + path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = HTTPClientRequest(url: components.url!.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "User-Agent", value: "tally-cli")
        // The server's refusals in the terminal's language (English without the header).
        if let written = Said.terminal { request.headers.add(name: "Accept-Language", value: written.languageTag) }
        if body != nil { request.headers.add(name: "Content-Type", value: contentType) }
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))

        return try await Self.withHTTPClient(timeout: timeout) { client in
            func send(_ request: HTTPClientRequest) async throws -> Result {
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(request, deadline: deadline)
                } catch {
                    throw RemoteFailure(Phrase("Cannot reach the server at \(server): \(Self.reason(error, timeout: timeout))."))
                }
                guard (200..<300).contains(response.status.code) else {
                    let answer = (try? await response.body.collect(upTo: 1 << 20)) ?? ByteBuffer()
                    throw problem(status: response.status, answer, method: method, path: path)
                }
                do {
                    return try await read(response)
                } catch let error as NIOTooManyBytesError {
                    throw RemoteFailure(error.maxBytes.map { Phrase("The server at \(server) answered \(method) /api/v1/\(path) with more than \($0 >> 20) MB.") }
                        ?? Phrase("The server at \(server) answered \(method) /api/v1/\(path) with more than this tally can read."))
                } catch let error as HTTPClientError {
                    throw RemoteFailure(Phrase("The server at \(server) stopped answering: \(Self.reason(error, timeout: timeout))."))
                }
            }
            guard case .file(let file) = body else {
                if case .data(let data) = body { request.body = .bytes(ByteBuffer(data: data)) }
                return try await send(request)
            }
            return try await FileSystem.shared.withFileHandle(forReadingAt: .init(file.path)) { handle in
                request.body = .stream(handle.readChunks(), length: .known(try await handle.info().size))
                return try await send(request)
            }
        }
    }

    /// A client for one exchange, shut down after it. It fails at once when nothing listens
    /// rather than trying again until the deadline, as a server's client would.
    private static func withHTTPClient<Result>(timeout: TimeInterval, _ body: (HTTPClient) async throws -> Result) async throws -> Result {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .milliseconds(Int64(timeout * 1000)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let result = try await body(client)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The error of an answer that is not a success: a TallyError with the problem's sentence
    /// and field when the server says what is wrong, as the local service would have.
    private func problem(status: HTTPResponseStatus, _ answer: ByteBuffer, method: String, path: String) -> any Error {
        guard var problem = try? APICoding.decoder.decode(Problem.self, from: Data(buffer: answer)),
              case let detail = problem.detail.trimmingCharacters(in: .whitespacesAndNewlines), !detail.isEmpty else {
            return RemoteFailure(
                Phrase("The server at \(server) answered \(method) /api/v1/\(path) with \(status.code) (\(status.reasonPhrase.lowercased())) and no explanation; check that it is a Tally server."))
        }
        (problem.status, problem.detail) = (Int(status.code), detail)
        return problem.error ?? RemoteFailure(.verbatim(detail))
    }

    /// Why a request got no answer, in words.
    private static func reason(_ error: any Error, timeout: TimeInterval) -> Phrase {
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout: return Phrase("it did not accept a connection within 10 seconds")
            case .deadlineExceeded, .readTimeout, .writeTimeout: return Phrase("it did not answer within \(Int(timeout)) seconds")
            case .remoteConnectionClosed: return Phrase("the connection was lost")
            case .tlsHandshakeTimeout: return Phrase("the TLS connection failed (no handshake within 10 seconds)")
            default: return trimmedDescription(error)
            }
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return Phrase("its host name is not known")
            }
            return error.connectionErrors.first.map { reason($0.error, timeout: timeout) } ?? Phrase("the connection was refused")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return Phrase("the connection was refused")
        case is SocketAddressError:
            return Phrase("its host name is not known")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return Phrase("the TLS connection failed (\(tlsReason(error)))")
        default:
            return trimmedDescription(error)
        }
    }

    /// BoringSSL's own words name its source files; these are what a person can act on.
    private static func tlsReason(_ error: any Error) -> Phrase {
        let words = String(describing: error)
        if words.contains("WRONG_VERSION_NUMBER") { return Phrase("it does not speak TLS there: try http://") }
        if words.contains("CERTIFICATE_VERIFY_FAILED") || words.contains("failedToValidateHostname") {
            return Phrase("its certificate is not trusted for that name")
        }
        return Phrase("the handshake was refused")
    }

    /// A library's own description of the error, as it wrote it.
    private static func trimmedDescription(_ error: any Error) -> Phrase {
        var text = String(describing: error).trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return .verbatim(text)
    }
}
