import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import TallyCore
@testable import TallyServer

/// A6: a structured log line for every request, with its status and duration, and no secrets.
@Suite("Access log")
struct AccessLogTests {
    /// Keeps every log line's message and metadata.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(message: String, metadata: Logger.Metadata)] = []
        func add(_ message: String, _ metadata: Logger.Metadata) { lock.withLock { lines.append((message, metadata)) } }
        var all: [(message: String, metadata: Logger.Metadata)] { lock.withLock { lines } }
    }

    struct Capture: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            lines.add(message.description, self.metadata.merging(metadata ?? [:]) { $1 })
        }
    }

    @Test("A6: method, path, status and duration of each request; calendar and invite secrets left out")
    func lines() async throws {
        let f = try await ServerFixture()
        let lines = Lines()
        let logger = Logger(label: "tally-test") { _ in Capture(lines: lines) }
        let app = buildApplication(configuration: ServerConfiguration(passwordCost: 4), store: f.store, clock: f.clock, logger: logger)
        try await app.test(.router) { client in
            _ = try await client.send(.get, "/health", token: nil)
            _ = try await client.send(.post, "/api/v1/intakes", token: nil, json: #"{"volumeMl": 250}"#)
            _ = try await client.send(.post, "/api/v1/intakes", token: f.adaToken, json: #"{"volumeMl": 250}"#)
            _ = try await client.send(.get, "/calendar/s3cr3t-feed-address.ics", token: nil)
        }
        let requests = lines.all.filter { $0.metadata["http.status"] != nil }
        #expect(requests.map { "\($0.metadata["http.method"]!) \($0.metadata["http.path"]!) \($0.metadata["http.status"]!)" } == [
            "GET /health 200", "POST /api/v1/intakes 401", "POST /api/v1/intakes 201", "GET /calendar/… 404",
        ])
        #expect(requests.allSatisfy { Double($0.metadata["http.duration_ms"]!.description) ?? -1 >= 0 })
        #expect(requests.first?.message.hasPrefix("GET /health 200 ") == true)
        #expect(!lines.all.contains { "\($0.message) \($0.metadata)".contains("s3cr3t") }, "a secret address was logged")
    }

    @Test("A6: in the server's own log, a request's line has its metadata, source and message; no secret")
    func serverLogLines() async throws {
        let f = try await ServerFixture()
        let output = ServerLogTests.Output(interval: nil)
        let logger = Logger(label: "tally") { label in ServerLog.Handler(label: label, log: output.log) }
        let app = buildApplication(configuration: ServerConfiguration(passwordCost: 4), store: f.store, clock: f.clock, logger: logger)
        try await app.test(.router) { client in
            _ = try await client.send(.get, "/health", token: nil)
            _ = try await client.send(.get, "/join/s3cr3t-invite", token: nil)
        }
        output.log.flush()
        let lines = output.text().split(separator: "\n").map(String.init).filter { $0.contains("http.status=") }
        let health = #/ info tally: (hb\.request\.id=\w+ )?http\.duration_ms=\d+\.\d http\.method=GET http\.path=/health http\.status=200 \[TallyServer\] GET /health 200 \d+\.\d ms$/#
        #expect(lines.count == 2 && lines[0].firstMatch(of: health) != nil, "\(lines)")
        #expect(lines.last?.contains("http.path=/join/… http.status=") == true, "\(lines)")
        #expect(!lines.joined().contains("s3cr3t"), "a secret address was logged")
    }

    @Test("A6: the duration is milliseconds with one decimal")
    func durations() {
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.zero) == "0.0")
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.microseconds(49)) == "0.0")
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.microseconds(50)) == "0.1")
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.microseconds(12_345)) == "12.3")
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.microseconds(999_960)) == "1000.0")
        #expect(AccessLogMiddleware<TallyRequestContext>.milliseconds(.seconds(3) + .milliseconds(7)) == "3007.0")
    }
}
