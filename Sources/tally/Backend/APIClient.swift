import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyAPI
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
        try await answer(route, parameters, query: query, body: try APICoding.encoder.encode(body))
    }

    /// A JSON route without a body.
    func send<Answer: Decodable>(_ route: Route<NoBody, Answer>, _ parameters: any CustomStringConvertible...,
                                 query: [URLQueryItem] = []) async throws -> Answer {
        try await answer(route, parameters, query: query, body: nil)
    }

    /// A route whose body is a file: `data` from memory, or `file` streamed from disk.
    func upload<Answer: Decodable>(_ route: Route<FileBody, Answer>, data: Data? = nil, file: URL? = nil, query: [URLQueryItem] = [],
                                   contentType: String, timeout: TimeInterval = Self.timeout) async throws -> Answer {
        let answer = try await exchange(route.method.rawValue, route.path(), query: query, body: data, bodyFile: file,
                                        contentType: contentType, timeout: timeout)
        return try decode(answer, of: route)
    }

    /// A route whose answer is a file, as it came.
    func download(_ route: Route<NoBody, FileBody>, _ parameters: any CustomStringConvertible...,
                  query: [URLQueryItem] = []) async throws -> Data {
        try await exchange(route.method.rawValue, route.path(parameters), query: query, contentType: "application/json")
    }

    private func answer<Body, Answer: Decodable>(_ route: Route<Body, Answer>, _ parameters: [any CustomStringConvertible],
                                                 query: [URLQueryItem], body: Data?) async throws -> Answer {
        let data = try await exchange(route.method.rawValue, route.path(parameters), query: query, body: body,
                                      contentType: "application/json")
        return try decode(data, of: route)
    }

    private func decode<Body, Answer: Decodable>(_ data: Data, of route: Route<Body, Answer>) throws -> Answer {
        if Answer.self == NoBody.self { return NoBody() as! Answer }
        do {
            return try APICoding.decoder.decode(Answer.self, from: data)
        } catch {
            throw RemoteFailure(
                "The server at \(server) answered \(route) with a body this tally cannot read: check that it is a Tally server of this version.")
        }
    }

    /// One request with a body of any type; the answer's body as it came, once it is a success.
    /// One request: `body` from memory, or `bodyFile` streamed from disk (an export to import).
    private func exchange(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, bodyFile: URL? = nil,
                  contentType: String, timeout: TimeInterval = Self.timeout) async throws -> Data {
        var components = URLComponents(url: base.appendingPathComponent("api/v1/" + path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("tally-cli", forHTTPHeaderField: "User-Agent")
        if body != nil || bodyFile != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body

        let data: Data
        let response: URLResponse
        do {
            if let bodyFile {
                (data, response) = try await Self.session.upload(for: request, fromFile: bodyFile)
            } else {
                (data, response) = try await Self.session.data(for: request)
            }
        } catch {
            throw RemoteFailure("Cannot reach the server at \(server): \(Self.reason(error)).")
        }
        guard let http = response as? HTTPURLResponse else {
            throw RemoteFailure("The server at \(server) did not answer over HTTP.")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw problem(status: http.statusCode, data, method: method, path: path)
        }
        return data
    }

    /// The error of an answer that is not a success: a TallyError with the problem's sentence
    /// when the server says what is wrong, as the local service would have.
    private func problem(status: Int, _ data: Data, method: String, path: String) -> any Error {
        guard let detail = (try? APICoding.decoder.decode(Problem.self, from: data))?.detail
                .trimmingCharacters(in: .whitespacesAndNewlines), !detail.isEmpty else {
            let reason = HTTPURLResponse.localizedString(forStatusCode: status)
            return RemoteFailure(
                "The server at \(server) answered \(method) /api/v1/\(path) with \(status) (\(reason)) and no explanation; check that it is a Tally server.")
        }
        guard let kind = Problem.kind(of: status) else { return RemoteFailure(detail) }
        return TallyError(kind, detail)
    }

    /// Why a request got no answer, in words (URLError's own descriptions are terse on Linux).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else { return trimmedDescription(error) }
        switch error.code {
        case .cannotConnectToHost: return "the connection was refused"
        case .timedOut: return "it did not answer within \(Int(timeout)) seconds"
        case .cannotFindHost, .dnsLookupFailed: return "its host name is not known"
        case .notConnectedToInternet: return "this machine is not connected to a network"
        case .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the TLS connection failed (\(trimmedDescription(error)))"
        default: return trimmedDescription(error)
        }
    }

    private static func trimmedDescription(_ error: any Error) -> String {
        var text = error.localizedDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        return URLSession(configuration: configuration)
    }()
}

/// A failure that is no rule of Tally's: the server cannot be reached, fails, or does not speak
/// its API. The CLI prints the sentence and exits with 6.
struct RemoteFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
