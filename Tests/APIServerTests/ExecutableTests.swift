import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The rowserver executable", .runsOnce("rowserver processes on SQLite files of their own"))
struct ExecutableTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func signalShutsDownGracefullyAnsweringTheInFlightRequest(signal: Int32) async throws {
        let host = "127.0.0.\(signal == SIGTERM ? 3 : 4)"
        // In the full suite the cooperative pool of this process has stalled for 14 to 20 s at
        // a time (hundreds of tests queued on its two threads). Such a stall between the 100 Continue and the signal let
        // the child's 10 s idle timeout close the connection; one between the signal and the body
        // outlasted its 10 s grace. The child was right both times ("0 requests in flight", then
        // "stopped after the grace period"). So the child runs without idle or request timeouts
        // and with a long grace, and the whole exchange runs on one thread of its own.
        let server = try ServerProcess(arguments: [
            "--host", host, "--connection-timeout", "0", "--request-timeout", "0", "--shutdown-grace", "60",
        ])
        let port = server.port
        let response = try await onThread { () -> HTTPResponse in
            // A request whose body is still arriving when the signal comes. The interim 100
            // Continue proves the server has begun it.
            let client = try RawHTTPClient(port: port, host: host)
            try client.send("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try client.readHead()
            guard interim.status == 100 else { throw RawHTTPClient.Failure(description: "no 100 Continue: \(interim.status)") }
            server.signal(signal)
            usleep(UInt32(200_000 * RawHTTPClient.slowdown))
            try client.send("abcd")
            return try client.readResponse()
        }
        #expect(response.status == 405)
        #expect(response.header("Connection") == "close")
        let status = try await onThread { server.waitForExit() }
        #expect(status == 0)
    }

    @Test func sigtermLosesNoAccessLogLine() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(arguments: ["--access-log", path])
        let port = server.port
        let answered = try await onThread { () -> Int in
            let client = try RawHTTPClient(port: port)
            var answered = 0
            for number in 0..<300 {
                let response = try client.request("GET", "/v1/products?limit=2", headers: [("X-Request-ID", "sigterm-\(number)")])
                if response.status == 200 { answered += 1 }
            }
            // At once: the last lines are still in the buffer, not yet written by its thread.
            server.signal(SIGTERM)
            return answered
        }
        #expect(answered == 300)
        let status = try await onThread { server.waitForExit() }
        #expect(status == 0)
        let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        let ids = text.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["id"] as? String
        }
        #expect(ids.count == 300)
        #expect(ids.last == "sigterm-299")
    }

    @Test func environmentVariablesConfigureTheServer() async throws {
        let server = try ServerProcess(environment: ["ROWSERVER_CORS_ORIGINS": "https://a.example"])
        let response = try await fetch(port: server.port, "/health", headers: [("Origin", "https://a.example")])
        #expect(response.header("Access-Control-Allow-Origin") == "https://a.example")
    }

    @Test func helpExplainsTheOptions() async throws {
        let process = ChildProcess()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = ["serve", "--help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for option in ["--host", "--port", "--threads", "--connection-timeout", "--max-body", "ROWSERVER_PORT"] {
            #expect(text.contains(option), "help lacks \(option)")
        }
    }

    @Test func invalidOptionFailsWithUsage() async throws {
        let process = ChildProcess()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = ["serve", "--port", "70000"]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
    }
}
