import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import Prometheus
import TallyCore
import TallyRepositories

/// The process's Prometheus registry, bootstrapped into swift-metrics once (the metrics system
/// can be bootstrapped only once per process, and tests build many applications).
enum ServerMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}

/// Push messages by what they were for (`kind`: reminder, ledger, test): those a push service
/// took (`tally_push_sent_total`), and those it did not (`tally_push_failures_total`, by
/// `reason`: "gone" when it said the subscription is gone, "refused" for another error status,
/// "unreachable" for no answer within the timeouts).
enum PushCounts {
    static func count(_ outcome: PushOutcome, kind: PushSender.Kind) {
        _ = ServerMetrics.registry // a counter made before the bootstrap would count nowhere
        switch outcome {
        case .delivered:
            Metrics.Counter(label: "tally_push_sent_total", dimensions: [("kind", kind.rawValue)]).increment()
        case .gone:
            failure(kind, "gone")
        case .failed(let failure):
            self.failure(kind, failure == "no answer" ? "unreachable" : "refused")
        }
    }

    private static func failure(_ kind: PushSender.Kind, _ reason: String) {
        Metrics.Counter(label: "tally_push_failures_total", dimensions: [("kind", kind.rawValue), ("reason", reason)]).increment()
    }
}

/// Writes the database refused (a full disk, a read-only file system, an I/O error): counted in
/// /metrics by kind (`tally_storage_failures_total{kind="full"|"unavailable"}`), and logged at most
/// once a minute each, so that a full disk under load fills no log.
enum StorageFaults {
    static let full: Metrics.Counter = {
        _ = ServerMetrics.registry
        return Metrics.Counter(label: "tally_storage_failures_total", dimensions: [("kind", "full")])
    }()
    static let unavailable: Metrics.Counter = {
        _ = ServerMetrics.registry
        return Metrics.Counter(label: "tally_storage_failures_total", dimensions: [("kind", "unavailable")])
    }()
    private static let lastLogged = NIOLockedValueBox<[TallyError.Kind: Date]>([:])
    private static let logger = Logger(label: "tally")

    /// Counts `error` if it is a storage fault, and logs it unless one of its kind was logged
    /// within the last minute.
    static func record(_ error: TallyError, now: Date = Date()) {
        switch error.kind {
        case .storageFull: full.increment()
        case .storageUnavailable: unavailable.increment()
        default: return
        }
        let due = lastLogged.withLockedValue { logged in
            guard logged[error.kind].map({ now.timeIntervalSince($0) >= 60 }) ?? true else { return false }
            logged[error.kind] = now
            return true
        }
        if due { logger.error("A write was refused: \(error.message) (logged at most once a minute; counted in tally_storage_failures_total)") }
    }
}
