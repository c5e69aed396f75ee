import Foundation
import Logging
import Synchronization

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

    /// Keeps `line` to be written; written at once (with those before it) when `urgent`.
    func append(_ line: String, urgent: Bool) {
        pending.withLock { pending in
            if pending.bytes.count + line.utf8.count > Self.limit {
                pending.dropped += 1
            } else {
                pending.bytes.append(contentsOf: line.utf8)
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
            var line = Timestamp.now()
            line.reserveCapacity(256)
            line += " "
            line += event.level.rawValue
            line += " "
            line += label
            line += ":"
            let sorted = pairs.indices.sorted { (pairs[$0].0, $0) < (pairs[$1].0, $1) }
            for (position, index) in sorted.enumerated() {
                let (key, value) = pairs[index]
                if position + 1 < sorted.count, pairs[sorted[position + 1]].0 == key { continue }
                line += " "
                line += key
                line += "="
                line += value.description
            }
            line += " ["
            line += event.source
            line += "] "
            line += event.message.description
            line += "\n"
            log.append(line, urgent: event.level >= .warning)
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
