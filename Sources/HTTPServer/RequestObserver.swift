import CoreMetrics
import Logging
import Synchronization

/// Records each answered request: one access-log line and the request metrics.
///
/// Metrics are labelled by route template and status class, never by raw path, so their
/// number stays bounded whatever clients send. Metric handles are cached per label set: the
/// factory lookup would otherwise take a lock on every request.
final class RequestObserver: Sendable {
    private let logger: Logger
    private let factory: any MetricsFactory
    private let handles = Locked<[Int: (Counter, Timer)]>([:])

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        self.factory = factory
    }

    func record(_ request: Request, status: Int, bytes: Int, nanoseconds: UInt64) {
        let statusClass = min(max(status / 100, 1), 5)
        let (counter, timer) = handles(request, statusClass: statusClass)
        counter.increment()
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
        if logger.logLevel <= .info {
            let micros = Double(nanoseconds / 1_000) / 1_000
            logger.info(
                "\(request.method.rawValue) \(request.routeTemplate ?? "unmatched") \(status) \(bytes)B \(micros)ms",
                metadata: ["request_id": .string(request.id), "target": .string(String(request.target.prefix(256)))])
        }
    }

    /// Handles keyed by an integer built from route index, method and status class: no string
    /// is built or hashed per request.
    private func handles(_ request: Request, statusClass: Int) -> (Counter, Timer) {
        let methodIndex = request.method.index
        let key = ((request.routeIndex + 1) << 8) | (methodIndex << 3) | statusClass
        if let cached = handles.withLock({ $0[key] }) { return cached }
        let dimensions = [
            ("method", request.method.rawValue), ("route", request.routeTemplate ?? "unmatched"), ("status", "\(statusClass)xx"),
        ]
        let made = (
            Counter(label: "http_requests_total", dimensions: dimensions, factory: factory),
            Timer(label: "http_request_duration_seconds", dimensions: dimensions, factory: factory)
        )
        handles.withLock { $0[key] = made }
        return made
    }
}
