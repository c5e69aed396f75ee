import Foundation
import Hummingbird
import Logging

/// The module that logs requests, as swift-log names it in a line's "[SOURCE]".
private let loggingModule = String(#fileID.prefix { $0 != "/" })

/// One structured log line per request, once it is answered: the method, the path (with the
/// secrets some paths carry left out), the status and how long it took (A6).
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: Int(response.status.code), since: start)
            return response
        } catch {
            log(request, context, status: Int((error as? any HTTPResponseError)?.status.code ?? 500), since: start)
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let path = Self.loggedPath(request.uri.path)
        let level: Logger.Level = status >= 500 ? .error : .info
        let tenths = Self.tenthsOfMilliseconds(elapsed)
        // The server's own log writes the same line straight into bytes (a tenth of /health went
        // into the message, the metadata's dictionary and their formatting).
        if let handler = context.logger.handler as? ServerLog.Handler {
            handler.logRequest(level: level, method: request.method.rawValue, path: path, status: status,
                               tenthsOfMilliseconds: tenths, source: loggingModule)
            return
        }
        // The message and metadata are only made when the level is logged; the duration once.
        let milliseconds = Self.milliseconds(tenths: tenths)
        context.logger.log(
            level: level,
            "\(request.method) \(path) \(status) \(milliseconds) ms",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.path": .string(path),
                "http.status": .stringConvertible(status),
                "http.duration_ms": .string(milliseconds),
            ])
    }

    /// A duration in milliseconds with one decimal, such as "12.3" (rounded half up): what
    /// `String(format: "%.1f")` wrote, without Foundation's formatter on every request.
    static func milliseconds(_ duration: Duration) -> String {
        milliseconds(tenths: tenthsOfMilliseconds(duration))
    }

    static func milliseconds(tenths: Int64) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }

    /// A duration in tenths of a millisecond, rounded half up; 0 for a negative one.
    static func tenthsOfMilliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        // A tenth of a millisecond is 10^14 attoseconds.
        return seconds * 10_000 + (attoseconds + 50_000_000_000_000) / 100_000_000_000_000
    }

    /// The path without the secrets that are a credential in themselves: a calendar feed's
    /// address and an invite code.
    static func loggedPath(_ path: String) -> String {
        for prefix in ["/calendar/", "/join/"] where path.hasPrefix(prefix) {
            return prefix + "…"
        }
        return path
    }
}
