import APIServer
import HTTPServer
import Logging
import Prometheus

/// The application in-process on an ephemeral port, with its own metrics registry.
final class LiveApplication: Sendable {
    let application: Application
    let registry: PrometheusCollectorRegistry

    var port: Int { application.port }

    init(healthChecks: [HealthCheck] = [], accessLog: AccessLog? = nil) throws {
        registry = PrometheusCollectorRegistry()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration,
            dependencies: .init(registry: registry, healthChecks: healthChecks, logger: logger, accessLog: accessLog))
    }

    deinit { application.shutdown(gracePeriod: 1) }
}
