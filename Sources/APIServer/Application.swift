import Domain
import HTTPServer
import Logging
import Metrics
import Prometheus
import Storage

/// rowserver as a running thing: its routes on an HTTP server.
public final class Application: Sendable {
    public let server: Server

    /// Everything the routes need, built by the caller (the CLI, or a test).
    public struct Dependencies: Sendable {
        public var registry: PrometheusCollectorRegistry
        public var healthChecks: [HealthCheck]
        public var logger: Logger
        /// The collections' source of truth, made from a definition (the demo's by default);
        /// without one only the operational routes exist.
        public var store: (any ItemStore)?
        /// The key that signs cursors and change tokens; keep it across restarts.
        public var tokenKey: [UInt8]
        /// Rendered list pages kept by ETag, and 8 times as many details (0: no caches).
        public var responseCacheEntries: Int
        /// One JSON line per answered request; the server closes it at shutdown.
        public var accessLog: AccessLog?
        /// Token buckets per key and per client address; nil: no rate limits.
        public var rateLimiter: RateLimiter?
        /// How lists are streamed as server-sent events.
        public var streams: StreamSettings

        public init(
            registry: PrometheusCollectorRegistry, healthChecks: [HealthCheck] = [], logger: Logger, store: (any ItemStore)? = nil,
            tokenKey: [UInt8]? = nil, responseCacheEntries: Int = 2_048, accessLog: AccessLog? = nil, rateLimiter: RateLimiter? = nil,
            streams: StreamSettings = StreamSettings()
        ) {
            self.streams = streams
            self.registry = registry
            self.healthChecks = healthChecks
            self.logger = logger
            self.store = store
            self.tokenKey = tokenKey ?? Application.newTokenKey()
            self.responseCacheEntries = responseCacheEntries
            self.accessLog = accessLog
            self.rateLimiter = rateLimiter
        }
    }

    /// With a store, requests pass `KeyAuthenticator` (the API keys in the store's file) first,
    /// then the rate limiter, which counts by the key found (or by address without one).
    public init(configuration: ServerConfiguration, dependencies: Dependencies) throws {
        let router = Self.makeRouter(dependencies)
        var stages: [any RequestStage] = []
        var responseStages: [any ResponseStage] = []
        if let store = dependencies.store { stages.append(KeyAuthenticator(keys: store.keyRecords)) }
        if let limiter = dependencies.rateLimiter {
            stages.append(limiter)
            responseStages.append(limiter)
        }
        server = try Server(
            configuration: configuration, router: router, stages: stages, responseStages: responseStages, logger: dependencies.logger,
            metricsFactory: PrometheusMetricsFactory(registry: dependencies.registry), accessLog: dependencies.accessLog)
    }

    public var port: Int { server.port }

    /// Requests begun and not yet completed, and connections open: what a shutdown waits for.
    public var inFlight: (requests: Int, connections: Int) { (server.liveRequestCount, server.connectionCount) }

    /// Details are small (about 0.6 KB against 7.5 KB for a page of 50 rows) and addressed one
    /// by one, so a working set of details is many times larger than one of pages.
    static let detailEntriesPerListEntry = 8

    public static func makeRouter(_ dependencies: Dependencies) -> Router {
        var router = Router()
        HealthController(checks: dependencies.healthChecks).register(in: &router)
        MetricsController(registry: dependencies.registry, accessLog: dependencies.accessLog).register(in: &router)
        ExplorerController().register(in: &router)
        let cache = ResponseCache(maxEntries: dependencies.responseCacheEntries, name: "lists", registry: dependencies.registry)
        let details = ResponseCache(
            maxEntries: dependencies.responseCacheEntries * detailEntriesPerListEntry, maxBytes: 16 * 1024 * 1024, name: "details",
            registry: dependencies.registry)
        if let store = dependencies.store {
            let served = ServedCatalog(store: store)
            let spec = OpenAPIDocument.yaml(for: served.catalog, version: RowserverVersion.current)
            SpecController(spec: Array(spec.utf8)).register(in: &router)
            CatalogListController(
                served: served, signer: TokenSigner(key: dependencies.tokenKey), cache: cache,
                live: LiveLists(store: store, maximum: dependencies.streams.maximum, heartbeat: dependencies.streams.heartbeat)
            ).register(in: &router)
            CatalogItemsController(served: served, details: details, idempotency: IdempotentWrites(store: store.idempotencyRecords)).register(
                in: &router)
        } else {
            SpecController(spec: Array(OpenAPIDocument.yaml(for: Catalog(collections: []), version: RowserverVersion.current).utf8))
                .register(in: &router)
        }
        return router
    }

    @discardableResult
    public func shutdown(gracePeriod: Double? = nil) -> Bool {
        server.shutdown(gracePeriod: gracePeriod)
    }

    /// 32 random bytes for signing tokens.
    public static func newTokenKey() -> [UInt8] {
        TokenSigner.newKey()
    }
}
