import HTTPServer
import Prometheus

/// `GET /metrics`: the Prometheus text exposition of everything recorded through swift-metrics.
struct MetricsController: Sendable {
    var registry: PrometheusCollectorRegistry

    func register(in router: inout Router) {
        let registry = registry
        router.get("/metrics") { _ in
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
