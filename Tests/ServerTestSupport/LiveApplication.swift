import APIServer
import HTTPServer
import Logging
import Prometheus
import Storage

/// rowserver's application in-process on an ephemeral port (port 0, two threads, warnings only
/// in the log), with its own metrics registry; shut down when the value goes away. Every live
/// server of the suites starts here: without a store (the operational routes alone), over a
/// store the test made, or over a fresh one (`LiveStoreApplication`).
public final class LiveApplication: Sendable {
    public let application: Application
    public let registry: PrometheusCollectorRegistry

    public var port: Int { application.port }

    public init(
        store: (any ItemStore)? = nil, healthChecks: [HealthCheck] = [], tokenKey: [UInt8]? = nil, responseCacheEntries: Int = 2_048,
        accessLog: AccessLog? = nil, rateLimiter: RateLimiter? = nil, streams: StreamSettings = StreamSettings(),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        registry = PrometheusCollectorRegistry()
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configure(&configuration)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        application = try Application(
            configuration: configuration,
            dependencies: .init(
                registry: registry, healthChecks: healthChecks, logger: logger, store: store, tokenKey: tokenKey,
                responseCacheEntries: responseCacheEntries, accessLog: accessLog, rateLimiter: rateLimiter, streams: streams))
    }

    deinit { application.shutdown(gracePeriod: 1) }
}
