import Foundation
import Hummingbird
import TallyCore
import TallyStore

/// Any Encodable value as a JSON response, with a status.
struct JSONBody<Value: Encodable>: ResponseGenerator {
    var value: Value
    var status: HTTPResponse.Status = .ok

    init(_ value: Value, status: HTTPResponse.Status = .ok) {
        self.value = value
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONCoding.encoder.encode(value)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// What every API handler starts from: the user's hydration service.
struct APIServices: Sendable {
    let store: any TallyStorage
    let clock: any WallClock
    let accounts: AccountService
    let push: PushCenter
    /// Shared by every copy: the Apple Health imports under way on this server.
    var healthImports = HealthImports()

    func hydration(_ context: TallyRequestContext) throws -> HydrationService {
        hydration(for: try context.requireUser())
    }

    func hydration(for user: User) -> HydrationService {
        HydrationService(store: store, clock: clock, user: user.id)
    }

    func spending(_ context: TallyRequestContext) throws -> SpendingService {
        spending(for: try context.requireUser())
    }

    func spending(for user: User) -> SpendingService {
        SpendingService(store: store, clock: clock, user: user.id)
    }
}

extension Request {
    /// The body as JSON of type `T`. Decoding errors stay DecodingErrors, so that the problem
    /// says which field was wrong and how.
    func decodeJSON<T: Decodable>(_ type: T.Type, context: TallyRequestContext) async throws -> T {
        let body = try await self.body.collect(upTo: context.maxUploadSize)
        return try JSONCoding.decoder.decode(T.self, from: body)
    }

    static let pageSizes = 1...500

    /// The `limit` query parameter: how many items a page holds (1–500).
    func pageLimit(default value: Int) throws -> Int {
        let limit = try query("limit", Int.init, form: "a whole number") ?? value
        guard Self.pageSizes.contains(limit) else {
            throw TallyError.invalid("The query parameter limit must be between 1 and 500; \(limit) is not.")
        }
        return limit
    }

    /// The `cursor` query parameter of a page after the first.
    var pageOffset: Int {
        get throws { try query("cursor", { Int($0).flatMap { $0 >= 0 ? $0 : nil } }, form: "a cursor from an earlier page") ?? 0 }
    }

    /// A query parameter as typed, or a 400 that names it and its form.
    func query<T>(_ name: String, _ parse: (String) -> T?, form: String) throws -> T? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard let value = parse(text) else {
            throw TallyError.invalid("The query parameter \(name) must be \(form); \"\(text)\" is not.")
        }
        return value
    }
}

extension Parameters {
    /// The path's id: an id that is not even a UUID names nothing, so it is a 404.
    func id(_ what: String, parameter: String = "id") throws -> UUID {
        guard let text = get(parameter), let id = UUID(uuidString: text) else {
            throw TallyError.notFound("There is no \(what) with the id \(get(parameter) ?? "").")
        }
        return id
    }

    /// The ledger named in the path.
    var ledger: UUID {
        get throws { try id("ledger you are a member of", parameter: "ledger") }
    }

    /// The ledger member named in the path.
    var member: MemberID {
        get throws {
            guard let text = get("member"), let id = MemberID(text) else {
                throw TallyError.notFound("This ledger has no member with the id \(get("member") ?? "").")
            }
            return id
        }
    }
}
