import APIServer
import ArgumentParser
import DemoData
import Foundation
import HTTPServer
import Logging
import Metrics
import Prometheus
import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// `rowserver serve`: run the server until SIGTERM or SIGINT, then shut down gracefully.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP server (the default command).")

    @Option(help: "Address to bind: an IPv4 or IPv6 literal, or localhost. (ROWSERVER_HOST)")
    var host: String = Environment.string("ROWSERVER_HOST") ?? "127.0.0.1"

    @Option(help: "The SQLite database file; created, and filled with demo data, when missing. (ROWSERVER_DB)")
    var db: String = Environment.string("ROWSERVER_DB") ?? "./rowserver.sqlite"

    @Option(
        help: """
            The database: postgres://user@host:port/db for PostgreSQL, shared by every instance that names it (its tables \
            made, and filled with demo data, when it has none); a file path is a SQLite file, as --db. (ROWSERVER_DATABASE)
            """)
    var database: String? = Environment.string("ROWSERVER_DATABASE")

    @Flag(inversion: .prefixedNo, help: "Fill a new database with the demo data. (ROWSERVER_DEMO_DATA=0 turns it off)")
    var demoData: Bool = Environment.string("ROWSERVER_DEMO_DATA").map { $0 != "0" && $0 != "false" } ?? true

    @OptionGroup var definition: DefinitionOption

    @Option(help: "Port to listen on; 0 picks a free one and prints it. (ROWSERVER_PORT)")
    var port: Int = Environment.int("ROWSERVER_PORT") ?? 8080

    @Option(help: "Worker threads (libmicrohttpd's epoll pool). (ROWSERVER_THREADS)")
    var threads: Int = Environment.int("ROWSERVER_THREADS") ?? ServerConfiguration.coreCount

    @Option(help: "Open connections at most. (ROWSERVER_CONNECTION_LIMIT)")
    var connectionLimit: Int = Environment.int("ROWSERVER_CONNECTION_LIMIT") ?? 4_000

    @Option(help: "Open connections per client IP at most; 0 = unlimited, needed behind a proxy. (ROWSERVER_PER_IP_LIMIT)")
    var perIPLimit: Int = Environment.int("ROWSERVER_PER_IP_LIMIT") ?? 256

    @Option(
        help: """
            KiB of libmicrohttpd's memory per connection, which bounds a request's line and headers (past them: 414 or 431); \
            an idle stream holds about this much (15: 15.7 KiB of RSS a stream, and URIs up to about 12 KiB). \
            (ROWSERVER_CONNECTION_MEMORY)
            """)
    var connectionMemory: Int = Environment.int("ROWSERVER_CONNECTION_MEMORY") ?? 32

    @Option(help: "Seconds an idle connection stays open. (ROWSERVER_CONNECTION_TIMEOUT)")
    var connectionTimeout: Int = Environment.int("ROWSERVER_CONNECTION_TIMEOUT") ?? 10

    @Option(
        help: """
            Seconds a request may take to arrive, headers and body, from the connection's start or the previous \
            response; a later one loses its connection. 0 = no deadline. (ROWSERVER_REQUEST_TIMEOUT)
            """)
    var requestTimeout: Double = Environment.double("ROWSERVER_REQUEST_TIMEOUT") ?? 30

    @Option(help: "Largest request body in bytes; larger ones get 413. (ROWSERVER_MAX_BODY)")
    var maxBody: Int = Environment.int("ROWSERVER_MAX_BODY") ?? 1_048_576

    @Option(
        help:
            "An origin allowed by CORS, or * for any (keyless requests only: an API key crosses only to origins named); repeat for several. (ROWSERVER_CORS_ORIGINS, comma-separated)"
    )
    var corsOrigin: [String] = Environment.list("ROWSERVER_CORS_ORIGINS")

    @Flag(
        inversion: .prefixedNo,
        help: "Rate limits: token buckets per API key and per client address, 429 past them. (ROWSERVER_RATE_LIMIT=off turns them off)")
    var rateLimit: Bool = Environment.string("ROWSERVER_RATE_LIMIT").map { $0 != "off" && $0 != "0" && $0 != "false" } ?? true

    @Option(
        help: """
            Requests per client address without a key (IPv6: per /64): N/s, N/min or N/h, ,burst=N for more at once, or \
            off. (ROWSERVER_RATE_LIMIT_ADDRESS)
            """)
    var rateLimitAddress: String = Environment.string("ROWSERVER_RATE_LIMIT_ADDRESS") ?? Self.defaultAddressRate

    @Option(help: "Requests per API key, from any address: as --rate-limit-address. (ROWSERVER_RATE_LIMIT_KEY)")
    var rateLimitKey: String = Environment.string("ROWSERVER_RATE_LIMIT_KEY") ?? Self.defaultKeyRate

    @Option(
        help: """
            A proxy in front (nginx) whose X-Forwarded-For names the client: an address or a CIDR block; repeat for \
            several. Without one the header is ignored. (ROWSERVER_TRUSTED_PROXIES, comma-separated)
            """)
    var trustedProxy: [String] = Environment.list("ROWSERVER_TRUSTED_PROXIES")

    static let defaultAddressRate = "100/s,burst=200"
    static let defaultKeyRate = "1000/s,burst=2000"

    @Option(help: "Seconds a graceful shutdown waits for in-flight requests. (ROWSERVER_SHUTDOWN_GRACE)")
    var shutdownGrace: Double = Environment.double("ROWSERVER_SHUTDOWN_GRACE") ?? 10

    @Option(
        help: ArgumentHelp(
            "The certificate chain to serve HTTPS with (TLS 1.2 and 1.3), a PEM file; needs --tls-key. (ROWSERVER_TLS_CERT)",
            valueName: "file"))
    var tlsCert: String? = Environment.string("ROWSERVER_TLS_CERT")

    @Option(help: ArgumentHelp("The private key of --tls-cert, an unencrypted PEM file. (ROWSERVER_TLS_KEY)", valueName: "file"))
    var tlsKey: String? = Environment.string("ROWSERVER_TLS_KEY")

    @Option(help: "Rendered list pages kept by ETag, and 8 times as many details; 0 turns both caches off. (ROWSERVER_RESPONSE_CACHE)")
    var responseCache: Int = Environment.int("ROWSERVER_RESPONSE_CACHE") ?? 2_048

    @Option(
        help:
            "MiB of the database file each SQLite connection maps into memory; faster reads, but mapped pages count in the process's RSS. (ROWSERVER_MMAP_MIB)"
    )
    var mmapMib: Int = Environment.int("ROWSERVER_MMAP_MIB") ?? 0

    @Option(
        help: """
            With PostgreSQL: connections this instance opens at most (besides its listener's); requests beyond them wait up \
            to the busy timeout, then get 503. Keep instances × this under the server's max_connections. \
            (ROWSERVER_DATABASE_CONNECTIONS)
            """)
    var databaseConnections: Int = Environment.int("ROWSERVER_DATABASE_CONNECTIONS") ?? 16

    @Option(
        help: """
            Lists streamed as server-sent events at once at most; beyond them a stream gets 503 with Retry-After. Each is an open \
            connection: keep --connection-limit above it. (ROWSERVER_MAX_STREAMS)
            """)
    var maxStreams: Int = Environment.int("ROWSERVER_MAX_STREAMS") ?? 1_000

    @Option(help: "Seconds between the comment lines that keep an idle stream open through proxies. (ROWSERVER_STREAM_HEARTBEAT)")
    var streamHeartbeat: Double = Environment.double("ROWSERVER_STREAM_HEARTBEAT") ?? 15

    @Option(help: "trace, debug, info, notice, warning, error or critical: the application's log, on stderr. (ROWSERVER_LOG_LEVEL)")
    var logLevel: String = Environment.string("ROWSERVER_LOG_LEVEL") ?? "info"

    @Option(
        help: """
            One JSON line per answered request: - for stderr, stdout, off, or a file to append to; written by a buffer \
            off the request path, within 100 ms, and whole at shutdown. (ROWSERVER_ACCESS_LOG)
            """)
    var accessLog: String = Environment.string("ROWSERVER_ACCESS_LOG") ?? "-"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be within 0...65535") }
        guard threads >= 1 && threads <= 256 else { throw ValidationError("--threads must be within 1...256") }
        guard connectionLimit >= 1 else { throw ValidationError("--connection-limit must be at least 1") }
        guard (4...1_024).contains(connectionMemory) else { throw ValidationError("--connection-memory must be within 4...1024 (KiB)") }
        guard maxStreams >= 0 else { throw ValidationError("--max-streams must not be negative") }
        guard streamHeartbeat >= 0.01 else { throw ValidationError("--stream-heartbeat must be at least 0.01") }
        guard perIPLimit >= 0 else { throw ValidationError("--per-ip-limit must not be negative") }
        guard connectionTimeout >= 0 else { throw ValidationError("--connection-timeout must not be negative") }
        guard requestTimeout >= 0 else { throw ValidationError("--request-timeout must not be negative") }
        guard maxBody >= 0 else { throw ValidationError("--max-body must not be negative") }
        guard responseCache >= 0 else { throw ValidationError("--response-cache must not be negative") }
        guard mmapMib >= 0 else { throw ValidationError("--mmap-mib must not be negative") }
        guard (1...1_000).contains(databaseConnections) else { throw ValidationError("--database-connections must be 1 to 1000") }
        guard shutdownGrace >= 0 else { throw ValidationError("--shutdown-grace must not be negative") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together: HTTPS needs both") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level '\(logLevel)' is not a level") }
        guard !accessLog.isEmpty else { throw ValidationError("--access-log must be -, stdout, off or a file") }
        _ = try rateLimiter()
        _ = try trustedProxies()
    }

    func run() throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "rowserver")
        Self.raiseDescriptorLimit(toServe: connectionLimit, logger: logger)

        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = threads
        configuration.connectionLimit = connectionLimit
        configuration.perIPConnectionLimit = perIPLimit
        configuration.connectionTimeout = connectionTimeout
        configuration.connectionMemoryLimit = connectionMemory * 1024
        configuration.requestTimeout = requestTimeout
        configuration.maxBodySize = maxBody
        configuration.allowedOrigins = corsOrigin
        configuration.trustedProxies = try trustedProxies()
        configuration.shutdownGracePeriod = shutdownGrace
        configuration.tlsCertificate = try tlsCert.map { try Self.readPEM($0, option: "--tls-cert", logger: logger) }
        configuration.tlsKey = try tlsKey.map { try Self.readPEM($0, option: "--tls-key", logger: logger) }

        // Block the shutdown signals before any thread starts, so libmicrohttpd's threads
        // inherit the mask and only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        let application: Application
        let limiter = try rateLimiter()
        let catalog = try definition.catalog()
        do {
            let log: AccessLog?
            switch accessLog {
            case "off": log = nil
            case "-", "stderr": log = try AccessLog(destination: .standardError)
            case "stdout": log = try AccessLog(destination: .standardOutput)
            default: log = try AccessLog(destination: .file(accessLog))
            }
            // The definition is good before the database is opened: a bad one leaves it untouched.
            let options = CatalogStore.Options(seedItems: demoData ? DemoData.standardItems : nil, mmapSizeMiB: mmapMib)
            let store: any ItemStore
            let tokenKey: [UInt8]
            if let url = database, Self.isPostgres(url) {
                let postgres = try PostgresStore(url: url, catalog: catalog, options: options, connections: databaseConnections)
                (store, tokenKey) = (postgres, try postgres.sharedTokenKey(orStore: Application.newTokenKey()))
            } else {
                let path = database ?? db
                (store, tokenKey) = (try CatalogStore(path: path, catalog: catalog, options: options), try TokenKeyFile.load(besides: path))
            }
            // At most 4 database probes a second, however hard /health is polled.
            let health = HealthCheck(name: "database", minimumInterval: 0.25) { try store.checkHealth() }
            application = try Application(
                configuration: configuration,
                dependencies: .init(
                    registry: registry, healthChecks: [health], logger: logger, store: store, tokenKey: tokenKey,
                    responseCacheEntries: responseCache, accessLog: log, rateLimiter: limiter,
                    streams: .init(maximum: maxStreams, heartbeat: streamHeartbeat)))
        } catch StoreError.incompatibleDefinition(let message) {
            logger.critical("cannot start: \(message)")
            throw ExitCode(1)
        } catch {
            logger.critical("cannot start: \(error)")
            throw ExitCode(1)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let scheme = application.server.isTLS ? "https" : "http"
        print("rowserver \(RowserverVersion.current) listening on \(scheme)://\(shownHost):\(application.port)")
        fflush(nil)
        if let limiter {
            let address = limiter.addressPolicy.map { "\($0.description) per address" } ?? "no limit per address"
            let key = limiter.keyPolicy.map { "\($0.description) per API key" } ?? "no limit per API key"
            logger.info("rate limits: \(address), \(key) (--no-rate-limit turns them off)")
        }

        var received: Int32 = 0
        sigwait(&signals, &received)
        let inFlight = application.inFlight
        logger.notice(
            """
            received signal \(received): shutting down (grace \(shutdownGrace) s, \
            \(inFlight.requests) requests in flight on \(inFlight.connections) connections)
            """)
        let clean = application.shutdown()
        logger.notice(clean ? "stopped cleanly" : "stopped after the grace period with requests unanswered")
    }

    /// nil when rate limits are off, or both policies are.
    func rateLimiter() throws -> RateLimiter? {
        guard rateLimit else { return nil }
        do {
            let address = try RateLimitPolicy.parse(rateLimitAddress, name: "address")
            let key = try RateLimitPolicy.parse(rateLimitKey, name: "key")
            return address == nil && key == nil ? nil : RateLimiter(address: address, key: key)
        } catch {
            throw ValidationError("--rate-limit-address/--rate-limit-key: \(error)")
        }
    }

    func trustedProxies() throws -> TrustedProxies {
        try TrustedProxies(
            trustedProxy.map { text in
                guard let range = IPAddressRange(text) else {
                    throw ValidationError("--trusted-proxy '\(text)' is not an address or a CIDR block (10.0.0.0/8, fd00::/8)")
                }
                return range
            })
    }

    /// Each connection is a descriptor, and the usual soft limit (1,024) is below the default
    /// connection limit: raise the soft limit to the hard one, and say so when even that is short.
    static func raiseDescriptorLimit(toServe connections: Int, logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        // The database, the listening socket and the log take a few dozen more.
        let needed = rlim_t(connections + 64)
        if limit.rlim_cur < needed {
            logger.warning("open files are limited to \(limit.rlim_cur), below --connection-limit \(connections) + 64: raise ulimit -n")
        }
    }
}

extension Serve {
    /// Whether `database` names a PostgreSQL server rather than a SQLite file.
    static func isPostgres(_ database: String) -> Bool {
        database.hasPrefix("postgres://") || database.hasPrefix("postgresql://")
    }
}
