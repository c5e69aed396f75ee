import Foundation
import Hummingbird
import NIOCore
import TallyAPI
import TallyCore

// Handlers are registered against the routes of TallyAPI: the path, the method, the body's type
// and the answer's type come from there, never spelled here.

extension RouterMethods where Context == SignedInContext {
    /// A JSON route: the body is decoded as the route's (no body at all for `NoBody`, and `{}` for
    /// bodies whose fields are all optional), the answer encoded as the route's.
    @discardableResult
    func on<Body: Decodable, Answer: Encodable>(
        _ route: Route<Body, Answer>, use handle: @escaping @Sendable (Body, Request, SignedInContext) async throws -> JSONBody<Answer>
    ) -> Self {
        on(route.routerPath, method: route.httpMethod) { request, context in
            try context.permit(route)
            return try await handle(try await request.decode(Body.self, context: context), request, context)
        }
    }

    /// A route whose body is a file (an export brought in), read by the handler as it streams.
    @discardableResult
    func on<Answer: Encodable>(
        _ route: Route<FileBody, Answer>, use handle: @escaping @Sendable (Request, SignedInContext) async throws -> JSONBody<Answer>
    ) -> Self {
        on(route.routerPath, method: route.httpMethod) { request, context in
            try context.permit(route)
            return try await handle(request, context)
        }
    }

    /// A route that makes its answer itself: a file (an export to save), or a revision that may
    /// come as a stream of events.
    @discardableResult
    func on<Answer>(_ route: Route<NoBody, Answer>, use handle: @escaping @Sendable (Request, SignedInContext) async throws -> Response) -> Self {
        on(route.routerPath, method: route.httpMethod) { request, context in
            try context.permit(route)
            return try await handle(request, context)
        }
    }
}

extension Route {
    /// The path as Hummingbird's router writes it: `intakes/:id`.
    var routerPath: RouterPath { RouterPath(path(parameters.map { ":\($0)" })) }

    var httpMethod: HTTPRequest.Method {
        switch method {
        case .get: .get
        case .post: .post
        case .put: .put
        case .patch: .patch
        case .delete: .delete
        }
    }
}

extension Request {
    /// The body as JSON of type `T`, with no field `T` does not read (a 400 that names it).
    /// Decoding errors stay DecodingErrors, so that the problem says which field was wrong and how.
    func decode<T: Decodable>(_ type: T.Type, context: SignedInContext) async throws -> T {
        if T.self == NoBody.self { return NoBody() as! T }
        let body = try await collectBody(upTo: context.maxUploadSize)
        if body.readableBytes == 0, T.self is any OptionalFields.Type {
            return try APICoding.decodeRequest(T.self, from: Data("{}".utf8))
        }
        return try APICoding.decodeRequest(T.self, from: Data(buffer: body, byteTransferStrategy: .noCopy))
    }
}

/// An answer of a route: its value as JSON (nothing at all for `NoBody`), with a status.
struct JSONBody<Value: Encodable>: ResponseGenerator {
    var value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        if value is NoBody { return Response(status: status) }
        return try APICoding.encoder.response(to: value, status: status)
    }
}

/// What a handler returns as a value of its own (not a `JSONBody`) is written by the API's writer too.
extension WireEncoder: ResponseEncoder {
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        try response(to: value)
    }

    func response(to value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: try bytes(of: value))))
    }
}

extension JSONBody where Value == NoBody {
    /// An answer without a body: 204, or the status given.
    static func empty(_ status: HTTPResponse.Status = .noContent) -> JSONBody<NoBody> { JSONBody(NoBody(), status: status) }
}
