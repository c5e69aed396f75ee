import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TallyCore
import TallyRepositories
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

    @Test("A stream reads the revision at each wake and names each new one once, in order; it ends when a read fails")
    func eachChangeOnce() async throws {
        // setup: the revisions a ledger goes through, each read woken by the one before
        let script = [3, 3, 4, 4, 4, 6, 7, 7]
        let feed = ChangeFeed(lifetime: .seconds(600))
        let following = feed.signals.follow(.ledger(UUID()))
        let reads = Counter()
        var written: [String] = []
        following.wake()
        // act
        try await feed.stream(from: 3, following: following, revision: {
            let index = reads.next()
            guard index < script.count else { throw TallyError.notFound("There is no ledger with this id that you are a member of.") }
            following.wake()
            return Int64(script[index])
        }, write: { written.append($0) })
        // check
        #expect(try Self.revisions(in: written.joined()) == [3, 4, 6, 7])
        #expect(reads.value == script.count + 1)
        #expect(feed.signals.followerCount == 0, "an ended stream follows nothing")
    }

    @Test("A stream wakes for its own topic only: another ledger's or another day's commit costs it no read")
    func wakesForItsTopic() async throws {
        // setup: a stream of one ledger
        let feed = ChangeFeed(lifetime: .seconds(600))
        let (mine, other) = (UUID(), UUID())
        let following = feed.signals.follow(.ledger(mine))
        let reads = Counter()
        let written = Lines()
        let stream = Task {
            try await feed.stream(from: 1, following: following, revision: { Int64(reads.next() + 2) }, write: { written.append($0) })
        }
        // act: others' changes, then one of its own
        feed.signals.signal([.ledger(other), .day(user: mine, LocalDate(year: 2025, month: 6, day: 15)!)])
        try await Task.sleep(for: .milliseconds(50))
        let readsBefore = reads.value
        feed.signals.signal(.ledger(mine))
        while written.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        stream.cancel()
        // check
        #expect(readsBefore == 0, "no read for another topic")
        #expect(try Self.revisions(in: written.joined) == [1, 2])
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

    @Test("A quiet stream says it is still there at each heartbeat, reading again then, and a stream whose reads start failing ends")
    func keepAliveAndEnd() async throws {
        // setup: a feed read straight, with a revision that stays, then fails
        let feed = ChangeFeed(lifetime: .seconds(600), keepAlive: .milliseconds(50))
        let reads = Counter()
        var written: [String] = []
        // act
        try await feed.stream(from: 7, following: feed.signals.follow(.ledger(UUID())), revision: {
            guard reads.next() < 5 else { throw TallyError.notFound("There is no ledger with this id that you are a member of.") }
            return 7
        }, write: { written.append($0) })
        // check: the first event, comments while quiet, and an end when the read failed
        #expect(written.first == "retry: 1000\n\ndata: {\"revision\":7}\n\n")
        // Five quiet reads, a line for each unless the machine's load brought two wakes closer
        // than half a heartbeat (then the second writes nothing): never more lines than reads.
        #expect(written.dropFirst().allSatisfy { $0 == ": still here\n\n" } && (2...6).contains(written.count), "\(written)")
        #expect(reads.value == 6)
    }

    @Test("A stream ends after its lifetime, woken or not")
    func lifetime() async throws {
        let feed = ChangeFeed(lifetime: .milliseconds(100), keepAlive: .seconds(20))
        let started = ContinuousClock.now
        try await feed.stream(from: 1, following: feed.signals.follow(.ledger(UUID())), revision: { 1 }, write: { _ in })
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(feed.signals.followerCount == 0)
    }
}

/// Lines written by a stream in another task.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var count: Int { lock.withLock { lines.count } }
    var joined: String { lock.withLock { lines.joined() } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

/// A count shared with a closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func next() -> Int { lock.withLock { defer { count += 1 }; return count } }
}
