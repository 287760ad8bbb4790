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
    private let handles = Mutex<[String: (Counter, Timer)]>([:])

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        self.factory = factory
    }

    func record(method: HTTPMethod, template: String?, target: String, status: Int, bytes: Int, nanoseconds: UInt64, requestID: String) {
        let route = template ?? "unmatched"
        let statusClass = "\(status / 100)xx"
        let (counter, timer) = handles(method: method.rawValue, route: route, statusClass: statusClass)
        counter.increment()
        timer.recordNanoseconds(Int64(clamping: nanoseconds))
        if logger.logLevel <= .info {
            let micros = Double(nanoseconds / 1_000) / 1_000
            logger.info(
                "\(method.rawValue) \(route) \(status) \(bytes)B \(micros)ms",
                metadata: ["request_id": .string(requestID), "target": .string(String(target.prefix(256)))])
        }
    }

    private func handles(method: String, route: String, statusClass: String) -> (Counter, Timer) {
        let key = method + " " + route + " " + statusClass
        if let cached = handles.withLock({ $0[key] }) { return cached }
        let dimensions = [("method", method), ("route", route), ("status", statusClass)]
        let made = (
            Counter(label: "http_requests_total", dimensions: dimensions, factory: factory),
            Timer(label: "http_request_duration_seconds", dimensions: dimensions, factory: factory)
        )
        handles.withLock { $0[key] = made }
        return made
    }
}
