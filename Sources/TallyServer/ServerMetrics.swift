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
}
