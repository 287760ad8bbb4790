import APIServer
import Foundation
import HTTPTestSupport
import Testing

@Suite("Operational endpoints: /health, /metrics, /openapi.yaml")
struct OperationalEndpointTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "disk on fire" }
    }

    @Test func healthIsOKWithItsChecksAndVersion() async throws {
        let app = try LiveApplication(healthChecks: [HealthCheck(name: "database") {}])
        let response = try await fetch(port: app.port, "/health")
        #expect(response.status == 200)
        let json = try #require(response.json)
        #expect(json["status"] as? String == "ok")
        #expect(json["version"] as? String == RowserverVersion.current)
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.count == 1)
        #expect(checks.first?["name"] as? String == "database")
        #expect(checks.first?["status"] as? String == "ok")
    }

    @Test func healthIs503WhenACheckFails() async throws {
        let app = try LiveApplication(healthChecks: [HealthCheck(name: "database") { throw Broken() }])
        let response = try await fetch(port: app.port, "/health")
        #expect(response.status == 503)
        let json = try #require(response.json)
        #expect(json["status"] as? String == "unavailable")
        let check = try #require((json["checks"] as? [[String: Any]])?.first)
        #expect(check["status"] as? String == "failed")
        #expect(check["detail"] as? String == "disk on fire")
    }

    @Test func healthAnswersHEAD() async throws {
        let app = try LiveApplication()
        let response = try await fetch(port: app.port, "HEAD", "/health")
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(Int(response.header("Content-Length") ?? "") ?? 0 > 0)
    }

    @Test func metricsCountARequestByRouteTemplate() async throws {
        let app = try LiveApplication()
        _ = try await fetch(port: app.port, "/health")
        _ = try await fetch(port: app.port, "/health")
        _ = try await fetch(port: app.port, "/no/such/path")
        let response = try await fetch(port: app.port, "/metrics")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
        #expect(response.text.contains(#"http_requests_total{method="GET",route="/health",status="2xx"} 2"#))
        #expect(response.text.contains(#"http_requests_total{method="GET",route="unmatched",status="4xx"} 1"#))
        #expect(!response.text.contains("/no/such/path"), "raw paths must never become labels")
    }

    /// The served document is generated from the served definition; the top-level file is the demo's.
    @Test func specIsServedAsYAML() async throws {
        let app = try LiveStoreApplication(seedDemoData: false)
        let response = try await fetch(port: app.port, "/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("application/yaml") == true)
        #expect(response.text.hasPrefix("openapi: \"3.1"))
        let onDisk = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../openapi.yaml"), encoding: .utf8)
        #expect(response.text.trimmingCharacters(in: .newlines) == onDisk.trimmingCharacters(in: .newlines))
    }
}
