import HTTPServer
import Prometheus

/// `GET /metrics`: the Prometheus text exposition of everything recorded through swift-metrics,
/// and the access log's failed writes (read at each scrape: the log counts them itself, off the
/// metrics path, as a write runs on its own thread).
struct MetricsController: Sendable {
    /// `rowserver_access_log_write_failures` (a function: the descriptor type is not `Sendable`).
    static func accessLogFailures() -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "rowserver", metricName: "access_log_write", unitName: "failures",
            helpText: "Failed writes of the access log since start; each lost the lines it carried.")
    }

    var registry: PrometheusCollectorRegistry
    var accessLog: AccessLog?

    func register(in router: inout Router) {
        let registry = registry
        let failures = accessLog.map { log in
            (log, registry.makeGauge(descriptor: Self.accessLogFailures()))
        }
        router.get("/metrics") { _ in
            if let (log, gauge) = failures { gauge.set(Int64(log.writeFailures)) }
            var body: [UInt8] = []
            body.reserveCapacity(16 * 1024)
            registry.emit(into: &body)
            var response = Response(status: 200, body: body)
            response.headers.set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            response.headers.set("Cache-Control", "no-store")
            return response
        }
    }
}
