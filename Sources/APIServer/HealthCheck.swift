import Foundation
import HTTPServer

/// One thing `/health` verifies: a name and a probe that throws when it fails.
///
/// A probe with a `minimumInterval` runs at most that often; in between, `/health` reports its
/// last outcome. Health checkers poll, and load balancers poll hard: without this, every
/// `/health` request would cost a database query.
public struct HealthCheck: Sendable {
    public var name: String
    private let probe: @Sendable () throws -> Void
    private let cache: ProbeCache?

    public init(name: String, minimumInterval: Double = 0, probe: @escaping @Sendable () throws -> Void) {
        self.name = name
        self.probe = probe
        self.cache = minimumInterval > 0 ? ProbeCache(interval: minimumInterval) : nil
    }

    /// Runs the probe, or returns its outcome from less than `minimumInterval` ago.
    public func run() throws {
        guard let cache else { return try probe() }
        if let failure = try cache.outcome(probe) { throw failure }
    }
}

/// The last outcome of a probe and when it was taken.
final class ProbeCache: Sendable {
    private struct Outcome {
        var takenAt: Double
        var failure: ProbeFailure?
    }

    private let interval: Double
    private let last = Locked<Outcome?>(nil)

    init(interval: Double) {
        self.interval = interval
    }

    /// The failure of the latest probe (nil when it passed), probing again when it is stale.
    func outcome(_ probe: () throws -> Void) throws -> ProbeFailure? {
        let now = ProcessInfo.processInfo.systemUptime
        if let recent = last.withLock({ $0 }), now - recent.takenAt < interval { return recent.failure }
        var failure: ProbeFailure?
        do {
            try probe()
        } catch {
            failure = ProbeFailure(error)
        }
        last.withLock { $0 = Outcome(takenAt: now, failure: failure) }
        return failure
    }
}

/// A remembered probe failure, reported again until the next probe.
struct ProbeFailure: HTTPResponseError, CustomStringConvertible {
    var httpError: HTTPError
    var description: String

    init(_ error: any Error) {
        httpError = HealthCheck.answer(for: error)
        description = "\(error)"
    }
}

extension HealthCheck {
    /// What `/health` shows for a failed probe: the fixed detail of an error that knows its
    /// answer (a store's), never its message, which may name SQL or paths.
    static func answer(for error: any Error) -> HTTPError {
        (error as? any HTTPResponseError)?.httpError ?? .internalError("The check failed.")
    }
}
