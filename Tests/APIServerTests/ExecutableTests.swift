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
        // No idle or request timeout: the request below waits for its body on purpose, and in
        // the full suite this process once stalled for 14 s between the 100 Continue and the
        // signal, long enough for the child's 10 s idle timeout to close the connection (the
        // child then logged "0 requests in flight on 0 connections" and the client saw its
        // connection closed). The server was right; the test was racing its own timeouts.
        let server = try ServerProcess(arguments: ["--host", host, "--connection-timeout", "0", "--request-timeout", "0"])
        let port = server.port
        // A request whose body is still arriving when the signal comes. The interim 100 Continue
        // proves the server has begun it; the signal follows on the same thread, with no hop
        // through the cooperative pool in between.
        let client = try await onThread { () -> RawHTTPClient in
            let client = try RawHTTPClient(port: port, host: host)
            try client.send("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try client.readHead()
            guard interim.status == 100 else { throw RawHTTPClient.Failure(description: "no 100 Continue: \(interim.status)") }
            server.signal(signal)
            return client
        }
        try await Task.sleep(for: .milliseconds(Int(200 * RawHTTPClient.slowdown)))
        let response = try await onThread { () -> HTTPResponse in
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
