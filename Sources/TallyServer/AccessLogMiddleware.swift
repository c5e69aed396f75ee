import Foundation
import Hummingbird
import Logging

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
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let path = Self.loggedPath(request.uri.path)
        context.logger.log(
            level: status >= 500 ? .error : .info,
            "\(request.method) \(path) \(status) \(String(format: "%.1f", milliseconds)) ms",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.path": .string(path),
                "http.status": .stringConvertible(status),
                "http.duration_ms": .string(String(format: "%.1f", milliseconds)),
            ])
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
