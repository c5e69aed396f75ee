import Foundation
import Logging
import Synchronization
import TallyAPI

/// Where `tally serve` writes its log: lines in swift-log's usual form ("TIME LEVEL LABEL: KEY=VALUE
/// [SOURCE] MESSAGE") on standard output, but kept in memory by the request that logs them and
/// written by a thread of their own, so that no request waits on the terminal, a pipe or the
/// journal (the stream handler formatted the time with `strftime` and wrote each line with a
/// system call, a tenth of what a plain request cost: bench/server.sh).
///
/// Lines of warnings and errors are written at once, after those waiting. When the output does
/// not keep up (a pipe nobody reads), lines beyond 8 MB are dropped and the count is told once
/// the output moves again, rather than the server's memory growing without end.
public final class ServerLog: Sendable {
    public static let shared = ServerLog(descriptor: STDOUT_FILENO)

    private struct Pending {
        var bytes: [UInt8] = []
        var dropped = 0
    }
    private let pending = Mutex(Pending())
    private let descriptor: Int32
    /// Serializes writes to the descriptor: the writer thread's and those made at once.
    private let writing = Mutex(())
    static let limit = 8 << 20

    /// A log into `descriptor`, written every `interval` (nil: only when flushed, for tests).
    init(descriptor: Int32, interval: TimeInterval? = 0.05) {
        self.descriptor = descriptor
        guard let interval else { return }
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                flush()
            }
        }
        thread.name = "tally log"
        thread.start()
    }

    /// Sends every process logger here. Call once, before the first line.
    public static func bootstrap(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = Handler(label: label, log: shared)
            handler.logLevel = level
            return handler
        }
    }

    /// Keeps the bytes of a line to be written; written at once (with those before) when `urgent`.
    func append(_ line: [UInt8], urgent: Bool) {
        pending.withLock { pending in
            if pending.bytes.count + line.count > Self.limit {
                pending.dropped += 1
            } else {
                pending.bytes.append(contentsOf: line)
            }
        }
        if urgent { flush() }
    }

    /// Writes what is waiting.
    public func flush() {
        writing.withLock { _ in
            let (bytes, dropped) = pending.withLock { pending in
                defer { pending = Pending() }
                return (pending.bytes, pending.dropped)
            }
            write(bytes)
            if dropped > 0 { write(Array("\(dropped) log line(s) were dropped: the log's output did not keep up\n".utf8)) }
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// A logger's handler: formats the line on the caller's thread (what it needs is there), with
    /// the time written once a second.
    struct Handler: LogHandler {
        let label: String
        let log: ServerLog
        var logLevel: Logger.Level = .info
        var metadataProvider: Logger.MetadataProvider?
        var metadata = Logger.Metadata()

        init(label: String, log: ServerLog) {
            self.label = label
            self.log = log
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            // The handler's, the provider's and the event's metadata, in key order, the later
            // source winning a key: an array of a few pairs, cheaper than merging dictionaries.
            var pairs = metadata.map { ($0.key, $0.value) }
            if let provided = metadataProvider?.get() { pairs += provided.map { ($0.key, $0.value) } }
            if let explicit = event.metadata { pairs += explicit.map { ($0.key, $0.value) } }
            if let error = event.error { pairs.append(("error.message", "\(error)")) }
            var line = Line(level: event.level, label: label)
            let sorted = pairs.indices.sorted { (pairs[$0].0, $0) < (pairs[$1].0, $1) }
            for (position, index) in sorted.enumerated() {
                let (key, value) = pairs[index]
                if position + 1 < sorted.count, pairs[sorted[position + 1]].0 == key { continue }
                line.key(key)
                line.text(value.description)
            }
            line.end(source: event.source, message: event.message.description)
            log.append(line.bytes, urgent: event.level >= .warning)
        }

        /// The request log's line (`AccessLogMiddleware`): what `log(event:)` writes for the
        /// message "METHOD PATH STATUS MILLISECONDS ms" with the metadata `http.duration_ms`,
        /// `http.method`, `http.path` and `http.status`, but written straight into bytes, with
        /// no message, dictionary or sort made for it. Nothing is made below the handler's level.
        func logRequest(level: Logger.Level, method: String, path: String, status: Int, tenthsOfMilliseconds tenths: Int64,
                        source: String) {
            guard level >= logLevel else { return }
            // The handler's and the provider's keys, in key order, each once (the provider's
            // winning): usually Hummingbird's request id alone. A request key wins over both.
            var others = metadata.map { ($0.key, $0.value) }
            if let provided = metadataProvider?.get() { others += provided.map { ($0.key, $0.value) } }
            if others.count > 1 {
                others = others.indices.sorted { (others[$0].0, $0) < (others[$1].0, $1) }.map { others[$0] }
            }
            var line = Line(level: level, label: label)
            var next = 0
            // Writes the other keys that sort before `bound` (all that are left when nil); one
            // equal to `bound` is left out, the request's value being written instead.
            func othersBefore(_ bound: String?) {
                while next < others.count, bound.map({ others[next].0 <= $0 }) ?? true {
                    let (key, value) = others[next]
                    next += 1
                    if key == bound || (next < others.count && others[next].0 == key) { continue }
                    line.key(key)
                    line.text(value.description)
                }
            }
            othersBefore("http.duration_ms")
            line.key("http.duration_ms")
            line.tenths(tenths)
            othersBefore("http.method")
            line.key("http.method")
            line.text(method)
            othersBefore("http.path")
            line.key("http.path")
            line.text(path)
            othersBefore("http.status")
            line.key("http.status")
            line.number(Int64(status))
            othersBefore(nil)
            line.end(source: source) { line in
                line.text(method)
                line.text(" ")
                line.text(path)
                line.text(" ")
                line.number(Int64(status))
                line.text(" ")
                line.tenths(tenths)
                line.text(" ms")
            }
            log.append(line.bytes, urgent: level >= .warning)
        }
    }

    /// A line's bytes, in swift-log's usual form: "TIME LEVEL LABEL: KEY=VALUE… [SOURCE] MESSAGE".
    struct Line {
        private(set) var bytes: [UInt8] = []

        init(level: Logger.Level, label: String) {
            bytes.reserveCapacity(256)
            text(Timestamp.now())
            text(" ")
            text(level.rawValue)
            text(" ")
            text(label)
            text(":")
        }

        mutating func text(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        /// " KEY=": its value follows.
        mutating func key(_ key: String) {
            bytes.append(UInt8(ascii: " "))
            text(key)
            bytes.append(UInt8(ascii: "="))
        }

        /// A whole number in decimal.
        mutating func number(_ value: Int64) {
            JSONText.appendWholeNumber(value, to: &bytes)
        }

        /// Tenths of a millisecond as milliseconds with one decimal ("12.3").
        mutating func tenths(_ tenths: Int64) {
            number(tenths / 10)
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(tenths % 10))
        }

        mutating func end(source: String, message: String) {
            end(source: source) { $0.text(message) }
        }

        /// " [SOURCE] MESSAGE\n", the message written by `message`.
        mutating func end(source: String, message: (inout Line) -> Void) {
            text(" [")
            text(source)
            text("] ")
            message(&self)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// The current second as "2026-11-27T22:22:00+0000" (UTC), made once per second.
    enum Timestamp {
        private static let last = Mutex<(second: Int, text: String)>((-1, ""))

        static func now() -> String {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            let second = spec.tv_sec
            if let text = last.withLock({ $0.second == second ? $0.text : nil }) { return text }
            var time = tm()
            var seconds = second
            gmtime_r(&seconds, &time)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d+0000", time.tm_year + 1900, time.tm_mon + 1, time.tm_mday,
                              time.tm_hour, time.tm_min, time.tm_sec)
            last.withLock { $0 = (second, text) }
            return text
        }
    }
}
