import APIServer
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
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
        // A probe's own message is for logs: it may name SQL or paths.
        #expect(check["detail"] as? String == "The check failed.")
        #expect(!response.text.contains("disk on fire"))
    }

    @Test(arguments: [
        (StoreError.sqlite(SQLiteFailure(extendedResultCode: 5, message: "database is locked: SELECT 1")), "The database cannot answer right now."),
        (
            StoreError.sqlite(SQLiteFailure(extendedResultCode: 11, message: "database disk image is malformed in /var/db")),
            "The server failed to answer this request."
        ),
    ])
    func healthShowsAStoreFailuresFixedDetailNeverItsMessage(error: StoreError, detail: String) async throws {
        let app = try LiveApplication(healthChecks: [HealthCheck(name: "database") { throw error }])
        let response = try await fetch(port: app.port, "/health")
        #expect(response.status == 503)
        let check = try #require((response.json?["checks"] as? [[String: Any]])?.first)
        #expect(check["detail"] as? String == detail)
        #expect(!response.text.contains("SELECT") && !response.text.contains("/var/db"))
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

    /// /dev/full takes the open and refuses every write (ENOSPC): the lost lines show in /metrics.
    @Test func metricsCountTheAccessLogsFailedWrites() async throws {
        let healthy = try LiveApplication(accessLog: try AccessLog(destination: .file("/dev/null")))
        _ = try await fetch(port: healthy.port, "/health")
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await fetch(port: healthy.port, "/metrics").text.contains("\nrowserver_access_log_write_failures 0.0\n"))

        let full = try LiveApplication(accessLog: try AccessLog(destination: .file("/dev/full")))
        _ = try await fetch(port: full.port, "/health")
        var failures = 0.0
        for _ in 0..<50 where failures == 0 {
            try await Task.sleep(for: .milliseconds(100))
            let text = try await fetch(port: full.port, "/metrics").text
            let line = text.split(separator: "\n").first { $0.hasPrefix("rowserver_access_log_write_failures ") }
            failures = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
        }
        #expect(failures >= 1)
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
