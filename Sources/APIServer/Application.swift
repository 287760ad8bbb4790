import HTTPServer
import Logging
import Metrics
import Prometheus

/// rowserver as a running thing: its routes on an HTTP server.
public final class Application: Sendable {
    public let server: Server

    /// Everything the routes need, built by the caller (the CLI, or a test).
    public struct Dependencies: Sendable {
        public var registry: PrometheusCollectorRegistry
        public var healthChecks: [HealthCheck]
        public var logger: Logger

        public init(registry: PrometheusCollectorRegistry, healthChecks: [HealthCheck] = [], logger: Logger) {
            self.registry = registry
            self.healthChecks = healthChecks
            self.logger = logger
        }
    }

    public init(configuration: ServerConfiguration, dependencies: Dependencies) throws {
        let router = Self.makeRouter(dependencies)
        server = try Server(
            configuration: configuration, router: router, logger: dependencies.logger,
            metricsFactory: PrometheusMetricsFactory(registry: dependencies.registry))
    }

    public var port: Int { server.port }

    public static func makeRouter(_ dependencies: Dependencies) -> Router {
        var router = Router()
        HealthController(checks: dependencies.healthChecks).register(in: &router)
        MetricsController(registry: dependencies.registry).register(in: &router)
        SpecController(spec: OpenAPISpec.bytes).register(in: &router)
        return router
    }

    @discardableResult
    public func shutdown(gracePeriod: Double? = nil) -> Bool {
        server.shutdown(gracePeriod: gracePeriod)
    }
}
