import Foundation
import Logging
import Testing
@testable import TallyServer

/// The server's log: lines in swift-log's usual form, written by a thread of their own, at once
/// for warnings and errors, and never more than the limit kept in memory.
@Suite("The server's log")
struct ServerLogTests {
    /// A log that writes into a pipe, and what has come out of it.
    final class Output: @unchecked Sendable {
        let log: ServerLog
        private let reading: Int32

        init(interval: TimeInterval? = 0.2) {
            var ends: [Int32] = [0, 0]
            _ = pipe(&ends)
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            reading = ends[0]
            log = ServerLog(descriptor: ends[1], interval: interval)
        }

        func text() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(reading, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    func logger(_ output: Output) -> Logger {
        var logger = Logger(label: "tally") { label in ServerLog.Handler(label: label, log: output.log) }
        logger[metadataKey: "hb.request.id"] = "7"
        return logger
    }

    @Test("A request's line: the time, level, label, metadata in key order, source and message; written soon, off the request")
    func requestLine() async throws {
        let output = Output()
        logger(output).info("GET /health 200 0.1 ms", metadata: ["http.status": "200", "http.method": "GET"])
        #expect(output.text().isEmpty, "not written by the request itself")
        try await Task.sleep(for: .milliseconds(600))
        let line = output.text()
        let pattern = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000 info tally: hb\.request\.id=7 http\.method=GET http\.status=200 \[TallyServerTests\] GET /health 200 0\.1 ms\n$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
    }

    @Test("A key the logger and the line both have is written once, with the line's value")
    func laterWins() {
        let output = Output(interval: nil)
        logger(output).info("moved", metadata: ["hb.request.id": "8", "a": "1"])
        output.log.flush()
        #expect(output.text().hasSuffix(" info tally: a=1 hb.request.id=8 [TallyServerTests] moved\n"))
    }

    @Test("The request log's own line is the one the general path writes for the same request")
    func requestLineWithoutItsMessage() {
        // setup: keys of the logger and of its provider before, among and after the request's,
        // one the provider shares with the logger and one the request's own value replaces
        let output = Output(interval: nil)
        var logger = Logger(label: "tally") { label in
            var handler = ServerLog.Handler(label: label, log: output.log)
            handler.metadataProvider = Logger.MetadataProvider { ["http.b": "from the provider", "zz": "provided"] }
            return handler
        }
        logger[metadataKey: "hb.request.id"] = "7"
        logger[metadataKey: "http.b"] = "the logger's"
        logger[metadataKey: "http.path"] = "replaced"
        logger[metadataKey: "http.n"] = "between"
        let handler = try! #require(logger.handler as? ServerLog.Handler)
        // act
        handler.logRequest(level: .info, method: "GET", path: "/health", status: 200, tenthsOfMilliseconds: 12_340,
                           source: "TallyServerTests")
        logger.info("GET /health 200 1234.0 ms", metadata: [
            "http.duration_ms": "1234.0", "http.method": "GET", "http.path": "/health", "http.status": "200",
        ])
        output.log.flush()
        // check: the same line but for the time, which may have moved a second
        let lines = output.text().split(separator: "\n").map { $0.drop { $0 != " " } }
        #expect(lines.count == 2 && lines[0] == lines[1], "\(lines)")
        #expect(lines.first.map(String.init) == " info tally: hb.request.id=7 http.b=from the provider http.duration_ms=1234.0 http.method=GET"
            + " http.n=between http.path=/health http.status=200 zz=provided [TallyServerTests] GET /health 200 1234.0 ms")
    }

    @Test("The request log's own line is made only at the handler's level; an error's is written at once")
    func requestLineLevels() {
        let output = Output()
        var handler = ServerLog.Handler(label: "tally", log: output.log)
        handler.logLevel = .warning
        handler.logRequest(level: .info, method: "GET", path: "/", status: 200, tenthsOfMilliseconds: 5, source: "S")
        handler.logRequest(level: .error, method: "GET", path: "/", status: 500, tenthsOfMilliseconds: 5, source: "S")
        let lines = output.text().split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasSuffix(" error tally: http.duration_ms=0.5 http.method=GET http.path=/"
            + " http.status=500 [S] GET / 500 0.5 ms"), "\(lines)")
    }

    @Test("A warning is written at once, after the lines that waited; a level below the logger's is not made at all")
    func urgentAndFiltered() {
        let output = Output()
        var logger = logger(output)
        logger.logLevel = .info
        logger.debug("\(Self.neverMade())")
        logger.info("first")
        logger.error("the disk is full")
        let lines = output.text().split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix("first") && lines[1].hasSuffix("the disk is full"), "\(lines)")
    }

    static func neverMade() -> String {
        Issue.record("a debug message was made at info")
        return ""
    }

    @Test("Past the limit, lines are dropped and counted, not kept")
    func limit() {
        let output = Output(interval: nil)
        let big = String(repeating: "x", count: ServerLog.limit / 4)
        for _ in 0..<6 { output.log.append(Array((big + "\n").utf8), urgent: false) }
        output.log.append(Array("last\n".utf8), urgent: false)
        var written = 0
        var text = ""
        // The pipe holds 64 KB: read while flushing.
        DispatchQueue.global().async { output.log.flush() }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let more = output.text()
            text += more
            written += more.utf8.count
            if text.contains("dropped") { break }
            Thread.sleep(forTimeInterval: 0.001)
        }
        #expect(text.contains("3 log line(s) were dropped"), "\(text.suffix(100))")
        #expect(text.hasSuffix("last\n3 log line(s) were dropped: the log's output did not keep up\n"))
        #expect(written <= ServerLog.limit + 200)
    }
}
