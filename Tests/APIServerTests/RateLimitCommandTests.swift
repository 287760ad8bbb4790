import Foundation
import HTTPTestSupport
import Testing

/// `rowserver serve`'s rate-limit options, through the binary.
@Suite("Rate limit options", .runsOnce("rowserver processes on SQLite files of their own"))
struct RateLimitCommandTests {
    @Test func theServerLimitsEveryAddressByDefault() async throws {
        let server = try ServerProcess(environment: ["ROWSERVER_RATE_LIMIT": "on"])
        let answer = try await fetch(port: server.port, "/health")
        #expect(answer.header("RateLimit-Policy") == #""address";q=100;w=1"#)
        #expect(answer.header("RateLimit") == #""address";r=199;t=1"#)
    }

    @Test func noRateLimitTurnsThemOff() async throws {
        let server = try ServerProcess(arguments: ["--no-rate-limit"], environment: ["ROWSERVER_RATE_LIMIT": "on"])
        let answer = try await fetch(port: server.port, "/health")
        #expect(answer.status == 200)
        #expect(answer.header("RateLimit") == nil)
        #expect(answer.header("RateLimit-Policy") == nil)
    }

    @Test func theOptionsSetTheRatesAndTheTrustedProxies() async throws {
        let server = try ServerProcess(
            arguments: ["--rate-limit", "--rate-limit-address", "1/h", "--trusted-proxy", "127.0.0.1"])
        let started = Date()
        let first = try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.1")])
        #expect(first.status == 200)
        #expect(first.header("RateLimit-Policy") == #""address";q=1;w=3600"#)
        let second = try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.1")])
        #expect(second.status == 429)
        // An hour less the time between the two requests (minutes, once, on a loaded CI machine).
        let retry = Int(second.header("Retry-After") ?? "") ?? 0
        #expect(retry <= 3_600 && Double(retry) >= 3_600 - Date().timeIntervalSince(started) - 1, "Retry-After \(retry)")
        #expect(try await fetch(port: server.port, "/health", headers: [("X-Forwarded-For", "203.0.113.2")]).status == 200)
    }

    @Test(arguments: [
        ["--rate-limit-address", "5/week"], ["--rate-limit-key", "fast"], ["--rate-limit-address", "10/s,burst=0"],
        ["--trusted-proxy", "nginx"], ["--trusted-proxy", "10.0.0.0/40"],
    ])
    func badValuesStopTheServerWithAMessage(arguments: [String]) throws {
        let result = try KeysCommandTests.run(["serve", "--port", "0", "--db", "/nonexistent/never.sqlite"] + arguments)
        #expect(result.status != 0)
        #expect(result.error.contains(arguments[0]), "\(result.error)")
    }
}
