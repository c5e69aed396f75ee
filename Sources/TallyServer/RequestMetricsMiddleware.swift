import Dispatch
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// Hummingbird's `MetricsMiddleware` with its metrics, names and labels (`hb.requests`,
/// `http.server.request.duration`, `hb.request.errors`, `http.server.active_requests`), recorded
/// when the answer is returned. Hummingbird's records them once the body is written, by wrapping
/// the body in a closure: every answer then went out in two writes (its head, then its body)
/// instead of the one batched write of a body in a buffer, two system calls a request where the
/// bare app makes one (bench/server.sh). So a stream (live updates, an export) counts as active
/// and is timed until its head, not until its end.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let metrics = RequestMetrics()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = metrics.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let endpoint = metrics.endpoint(context.endpointPath ?? "Unknown", request.method, response.status)
            endpoint.requests.increment()
            endpoint.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let endpoint = metrics.endpoint(context.endpointPath ?? "NotFound", request.method, status)
            endpoint.requests.increment()
            endpoint.errors.increment()
            throw error
        }
    }
}

/// The metrics of each method and of each route, method and status, made on first use.
private final class RequestMetrics: Sendable {
    struct Endpoint: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter
    }

    private struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    private let actives = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])
    private let endpoints = NIOLockedValueBox<[Key: Endpoint]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        actives.withLockedValue { actives in
            if let meter = actives[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.description)])
            actives[method] = meter
            return meter
        }
    }

    func endpoint(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Endpoint {
        endpoints.withLockedValue { endpoints in
            let key = Key(route: route, method: method, status: status)
            if let endpoint = endpoints[key] { return endpoint }
            let request = [("http.route", route), ("http.request.method", method.description)]
            let dimensions = request + [("http.response.status_code", status.code.description)]
            let endpoint = Endpoint(requests: Counter(label: "hb.requests", dimensions: dimensions),
                                    duration: Timer(label: "http.server.request.duration", dimensions: dimensions,
                                                    preferredDisplayUnit: .seconds),
                                    errors: Counter(label: "hb.request.errors", dimensions: request + [("error.type", status.code.description)]))
            endpoints[key] = endpoint
            return endpoint
        }
    }
}
