import Foundation
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The rowserver executable")
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

    @Test func environmentVariablesConfigureTheServer() async throws {
        let server = try ServerProcess(environment: ["ROWSERVER_CORS_ORIGINS": "https://a.example"])
        let response = try await fetch(port: server.port, "/health", headers: [("Origin", "https://a.example")])
        #expect(response.header("Access-Control-Allow-Origin") == "https://a.example")
    }

    @Test func helpExplainsTheOptions() async throws {
        let process = Process()
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
        let process = Process()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = ["serve", "--port", "70000"]
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
    }
}
