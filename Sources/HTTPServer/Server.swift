import CMicroHTTPD
import CoreMetrics
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on libmicrohttpd: a router, hardened defaults, graceful shutdown.
///
/// ```swift
/// var router = Router()
/// router.get("/health") { _ in .json(Array(#"{"status":"ok"}"#.utf8)) }
/// let server = try Server(configuration: config, router: router, logger: logger)
/// print(server.port)
/// server.shutdown()
/// ```
public final class Server: Sendable {
    private let core: ServerCore
    private let daemon: Daemon
    private let retainedCore: Unmanaged<ServerCore>
    private let stopped = Locked<Bool>(false)

    /// The port the server listens on (the one picked when configured with port 0).
    public var port: Int { daemon.port }

    /// True when it serves HTTPS (`ServerConfiguration.tlsCertificate` and `tlsKey` set), so
    /// its address is https://.
    public var isTLS: Bool { daemon.isTLS }

    /// Starts listening at once; answers requests on libmicrohttpd's pool threads. `stages` run
    /// before routing, in order (`RequestStage`); `responseStages` decorate every answer, between
    /// the request id and content coding (`ResponseStage`). The server owns `accessLog`: its shutdown
    /// writes the last lines and closes it.
    public init(
        configuration: ServerConfiguration, router: Router, stages: [any RequestStage] = [], responseStages: [any ResponseStage] = [],
        logger: Logger = Logger(label: "rowserver.http"),
        metricsFactory: any MetricsFactory = MetricsSystem.factory, accessLog: AccessLog? = nil
    ) throws {
        // A client closing its socket mid-response must not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let observer = RequestObserver(accessLog: accessLog, factory: metricsFactory)
        let core = ServerCore(
            configuration: configuration, router: router, stages: stages, responseStages: responseStages, logger: logger, observer: observer)
        let retained = Unmanaged.passRetained(core)
        do {
            daemon = try Daemon(configuration: configuration, cls: retained.toOpaque())
        } catch {
            retained.release()
            accessLog?.close()
            throw error
        }
        self.core = core
        self.retainedCore = retained
        core.deadlines?.start()
    }

    /// Requests begun and not yet completed (their per-request state is alive).
    public var liveRequestCount: Int { core.liveRequestCount }
    /// Requests begun since start.
    public var totalRequestCount: Int { core.totalRequestCount }
    /// Connections open now.
    public var connectionCount: Int { daemon.currentConnections }
    /// Streamed responses being sent (`Response.eventStream`).
    public var streamCount: Int { core.streams.count }
    /// Connections dropped because their request missed `requestTimeout`.
    public var deadlineDropCount: Int { core.deadlines?.dropped ?? 0 }

    /// Graceful shutdown: stop accepting, let in-flight requests finish (their responses say
    /// `Connection: close`) for up to `gracePeriod` seconds, then close everything.
    /// Returns true when every in-flight request was answered in time. Safe to call twice.
    @discardableResult
    public func shutdown(gracePeriod: Double? = nil) -> Bool {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        guard first else { return true }
        core.isShuttingDown.store(true, ordering: .relaxed)
        daemon.quiesce()
        // Streams never end by themselves: each ends now, with its farewell, and its request
        // completes within the grace period like any other.
        core.streams.finishAll()
        let grace = gracePeriod ?? core.configuration.shutdownGracePeriod
        let deadline = monotonicNanoseconds() + UInt64(max(0, grace) * 1e9)
        while core.liveRequestCount > 0 && monotonicNanoseconds() < deadline {
            usleep(2_000)
        }
        let clean = core.liveRequestCount == 0
        // libmicrohttpd aborts the process if it is stopped with suspended connections; past
        // this call no connection is suspended or being resumed.
        core.resumeAllSuspended()
        // Answers that exist (a 503 just resumed, or a response a handler finished as the grace
        // ran out) still go out: stopping now would close their connections unanswered.
        // Requests no handler took (still arriving) are not waited for.
        let answerDeadline = monotonicNanoseconds() + 1_000_000_000
        while core.answeringRequestCount > 0 && monotonicNanoseconds() < answerDeadline { usleep(2_000) }
        daemon.stop()
        core.deadlines?.stop()
        // After the daemon's stop no request is answered any more: this writes the last line.
        core.observer.accessLog?.close()
        return clean
    }

    deinit {
        shutdown(gracePeriod: 0)
        retainedCore.release()
    }
}
