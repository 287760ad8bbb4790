import CoreMetrics

/// Records each answered request: the request metrics, and a line in the access log if there is one.
///
/// Metrics are labelled by route template and status class, never by raw path, so their
/// number stays bounded whatever clients send. Metric handles are cached per label set: the
/// factory lookup would otherwise take a lock on every request.
final class RequestObserver: Sendable {
    let accessLog: AccessLog?
    private let factory: any MetricsFactory
    private let handles = Locked<[Int: (Counter, Timer)]>([:])

    init(accessLog: AccessLog?, factory: any MetricsFactory) {
        self.accessLog = accessLog
        self.factory = factory
    }

    func record(_ request: Request, status: Int, bytes: Int, nanoseconds: UInt64) {
        let statusClass = min(max(status / 100, 1), 5)
        let (counter, timer) = handles(request, statusClass: statusClass)
        counter.increment()
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
        accessLog?.record(request, status: status, bytes: bytes, nanoseconds: nanoseconds)
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
