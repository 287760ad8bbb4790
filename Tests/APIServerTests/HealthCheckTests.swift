import Synchronization
import Testing

@testable import APIServer

@Suite("Health probes (pure)")
struct HealthCheckTests {
    final class Counter: Sendable {
        let calls = Atomic<Int>(0)
    }

    struct Down: Error {}

    @Test func aProbeWithoutIntervalRunsEveryTime() throws {
        let counter = Counter()
        let check = HealthCheck(name: "db") { counter.calls.add(1, ordering: .relaxed) }
        for _ in 0..<5 { try check.run() }
        #expect(counter.calls.load(ordering: .relaxed) == 5)
    }

    @Test func aThrottledProbeRunsOncePerIntervalAndRepeatsItsOutcome() throws {
        let counter = Counter()
        let check = HealthCheck(name: "db", minimumInterval: 60) {
            counter.calls.add(1, ordering: .relaxed)
            throw Down()
        }
        for _ in 0..<5 { #expect(throws: (any Error).self) { try check.run() } }
        #expect(counter.calls.load(ordering: .relaxed) == 1)
    }

    @Test func aStaleOutcomeIsProbedAgain() async throws {
        let counter = Counter()
        let check = HealthCheck(name: "db", minimumInterval: 0.05) { counter.calls.add(1, ordering: .relaxed) }
        try check.run()
        try check.run()
        try await Task.sleep(for: .milliseconds(80))
        try check.run()
        #expect(counter.calls.load(ordering: .relaxed) == 2)
    }
}
