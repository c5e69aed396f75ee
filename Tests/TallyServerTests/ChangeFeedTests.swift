import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
@testable import TallyServer

/// How an open page hears of changes: `GET …/changes` gives a revision as JSON, or, asked for
/// `text/event-stream`, a stream of it that names each change made meanwhile and then ends. (That
/// a change made through another request shows on an open page within a second, the browser
/// tests show: here, under a loaded test run, a sleep is no measure of time.)
@Suite("Changes as server-sent events")
struct ChangeFeedTests {
    static let stream: HTTPFields = [.accept: "text/event-stream"]

    /// The revisions a stream's events carried, in order.
    static func revisions(in text: String) throws -> [Int64] {
        try text.components(separatedBy: "\n\n").filter { $0.hasPrefix("data: ") }.map { event in
            let json = try JSONSerialization.jsonObject(with: Data(event.dropFirst(6).utf8)) as? [String: Any]
            return try #require(json?["revision"] as? Int64)
        }
    }

    @Test("A ledger's changes: the revision as JSON, or a stream that starts with it and ends after its lifetime")
    func ledgerStream() async throws {
        // setup: a short-lived stream
        var f = try await ServerFixture()
        f.configuration.changeCheckInterval = .milliseconds(20)
        f.configuration.changeStreamLifetime = .milliseconds(300)
        let ada = f.adaToken
        try await f.test { client in
            let ledger = try await client.send(.post, "/api/v1/ledgers", token: ada, json: #"{"name": "Home", "currency": "EUR"}"#)
                .json()["id"] as! String
            let path = "/api/v1/ledgers/\(ledger)/changes"

            // act and check: without asking for a stream, the number as JSON (what a script or a fuzzer gets)
            let plain = try await client.send(.get, path, token: ada, headers: [.accept: "*/*"])
            #expect(plain.status == .ok && plain.headers[.contentType]?.hasPrefix("application/json") == true, "\(plain)")
            let before = try #require(try plain.json()["revision"] as? Int64)
            #expect(try await client.send(.post, "/api/v1/ledgers/\(ledger)/expenses", token: ada, json: #"{"amount": "12.50"}"#).status == .created)
            let after = try #require(try await client.send(.get, path, token: ada).json()["revision"] as? Int64)
            #expect(after > before)

            // act: a stream
            let started = ContinuousClock.now
            let answer = try await client.send(.get, path, token: ada, headers: Self.stream)
            let lasted = ContinuousClock.now - started

            // check: its form, the revision now, and its end
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/event-stream")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.text.hasPrefix("retry: 1000\n\n"), "\(answer)")
            #expect(try Self.revisions(in: answer.text) == [after], "\(answer)")
            #expect(lasted >= .milliseconds(300), "ends after its lifetime, not before: \(lasted)")
        }
    }

    @Test("A stream names each revision it reads once, in order, and ends when a read fails")
    func eachChangeOnce() async throws {
        // setup: the revisions a ledger goes through, read one after another
        let script = [3, 3, 4, 4, 4, 6, 7, 7]
        let reads = Counter()
        var written: [String] = []
        // act
        try await ChangeFeed(pollInterval: .milliseconds(1), lifetime: .seconds(600)).stream(from: 3, revision: {
            let index = reads.next()
            guard index < script.count else { throw TallyError.notFound("There is no ledger with this id that you are a member of.") }
            return Int64(script[index])
        }, write: { written.append($0) })
        // check
        #expect(try Self.revisions(in: written.joined()) == [3, 4, 6, 7])
        #expect(reads.value == script.count + 1)
    }

    @Test("A stream of a ledger one is not a member of is refused before it starts, as the ledger is")
    func strangers() async throws {
        let f = try await ServerFixture()
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            let ledger = try await client.send(.post, "/api/v1/ledgers", token: ada, json: #"{"name": "Home", "currency": "EUR"}"#)
                .json()["id"] as! String
            for headers in [Self.stream, [:]] {
                let refused = try await client.send(.get, "/api/v1/ledgers/\(ledger)/changes", token: bob, headers: headers)
                #expect(try refused.problem(.notFound).contains("no ledger"))
                try await client.send(.get, "/api/v1/ledgers/\(ledger)/changes", token: nil, headers: headers).problem(.unauthorized)
            }
        }
    }

    @Test("A day's drinks: its revision moves with the person's drinks, not another person's, and streams like a ledger's")
    func dayChanges() async throws {
        var f = try await ServerFixture()
        f.configuration.changeStreamLifetime = .milliseconds(100)
        let (ada, bob) = (f.adaToken, f.bobToken)
        try await f.test { client in
            func revision() async throws -> Int64 {
                try #require(try await client.send(.get, "/api/v1/days/2025-06-15/changes", token: ada).json()["revision"] as? Int64)
            }
            let before = try await revision()
            #expect(try await client.send(.post, "/api/v1/intakes", token: bob, json: #"{"volumeMl": 500}"#).status == .created)
            #expect(try await revision() == before)
            #expect(try await client.send(.post, "/api/v1/intakes", token: ada, json: #"{"volumeMl": 250}"#).status == .created)
            let after = try await revision()
            #expect(after > before)
            let answer = try await client.send(.get, "/api/v1/days/2025-06-15/changes", token: ada, headers: Self.stream)
            try await client.send(.get, "/api/v1/days/June/changes", token: ada).problem(.badRequest)
            #expect(answer.headers[.contentType] == "text/event-stream")
            #expect(try Self.revisions(in: answer.text) == [after], "\(answer)")
        }
    }

    @Test("A quiet stream says it is still there, and a stream whose reads start failing ends")
    func keepAliveAndEnd() async throws {
        // setup: a feed read straight, with a revision that stays, then fails
        let feed = ChangeFeed(pollInterval: .milliseconds(10), lifetime: .seconds(600), keepAlive: .milliseconds(50))
        let reads = Counter()
        var written: [String] = []
        // act
        try await feed.stream(from: 7, revision: {
            guard reads.next() < 20 else { throw TallyError.notFound("There is no ledger with this id that you are a member of.") }
            return 7
        }, write: { written.append($0) })
        // check: the first event, comments while quiet, and an end when the read failed
        #expect(written.first == "retry: 1000\n\ndata: {\"revision\":7}\n\n")
        #expect(written.dropFirst().allSatisfy { $0 == ": still here\n\n" } && written.count > 1, "\(written)")
        #expect(reads.value == 21)
    }
}

/// A count shared with a closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
}
