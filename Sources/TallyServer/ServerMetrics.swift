import Metrics
import Prometheus

/// The process's Prometheus registry, bootstrapped into swift-metrics once (the metrics system
/// can be bootstrapped only once per process, and tests build many applications).
enum ServerMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Push messages (reminders, test notifications) that a push service did not take: no
    /// answer within the timeouts, or an error status other than "gone".
    static let pushFailures: Metrics.Counter = {
        _ = registry // a counter made before the bootstrap would count nowhere
        return Metrics.Counter(label: "tally_push_failures_total")
    }()
}
