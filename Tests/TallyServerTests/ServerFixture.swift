import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TallyCore
import TallyRepositories
@testable import TallyServer
import TallyServices
import TallyStore
import Testing

/// A server on an in-memory store with two accounts, ada and bob, each with an API token, and a
/// clock the test sets.
struct ServerFixture {
    let store: SQLiteStore
    let clock: FixedClock
    let accounts: AccountService
    let ada: User
    let bob: User
    let adaToken: String
    let bobToken: String
    /// What the server is built with.
    var configuration = ServerConfiguration(passwordCost: 4)

    init(now: String = "2025-06-15T10:00:00Z") async throws {
        store = try SQLiteStore.inMemory()
        clock = FixedClock(ISO8601DateFormatter().date(from: now)!)
        accounts = AccountService(store: store, clock: clock, passwordCost: 4)
        ada = try await accounts.signUp(name: "ada", password: "correct horse", timeZone: "Europe/Berlin").user
        bob = try await accounts.createAccount(name: "bob", password: "battery staple", timeZone: "Europe/Berlin").user
        // Most tests sign new people up through the pages; the modes have tests of their own.
        try await store.setSignUpMode(.open)
        adaToken = try await accounts.createAPIToken(for: ada, name: "test").secret
        bobToken = try await accounts.createAPIToken(for: bob, name: "test").secret
    }

    var application: some ApplicationProtocol {
        buildApplication(configuration: configuration, store: store, clock: clock)
    }

    /// Runs `body` against the router, without a network.
    func test(_ body: @escaping @Sendable (TestClientProtocol) async throws -> Void) async throws {
        try await application.test(.router, body)
    }
}

/// One request's answer, with its body read.
struct Answer: CustomStringConvertible {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var description: String { "\(status.code) \(text)" }

    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not an object: \(self)")
    }

    func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: body)
    }

    /// The problem+json of an error, checked for its form; returns its detail.
    @discardableResult
    func problem(_ expected: HTTPResponse.Status, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(status == expected, "\(self)", sourceLocation: sourceLocation)
        #expect(headers[.contentType] == "application/problem+json", "\(self)", sourceLocation: sourceLocation)
        let problem = try json()
        #expect(problem["status"] as? Int == Int(expected.code), sourceLocation: sourceLocation)
        #expect((problem["title"] as? String)?.isEmpty == false, "no title: \(self)", sourceLocation: sourceLocation)
        let detail = try #require(problem["detail"] as? String, sourceLocation: sourceLocation)
        #expect(detail.hasSuffix(".") && !detail.isEmpty, "not a sentence: \(detail)", sourceLocation: sourceLocation)
        return detail
    }
}

extension TestClientProtocol {
    /// Sends a request as the holder of `token` (none when nil), with a JSON body given as text.
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String?, json: String? = nil,
              headers extra: HTTPFields = [:]) async throws -> Answer {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        let body = json.map { ByteBuffer(string: $0) }
        return try await execute(uri: uri, method: method, headers: headers, body: body) { response in
            Answer(status: response.status, headers: response.headers, body: Data(buffer: response.body))
        }
    }
}
