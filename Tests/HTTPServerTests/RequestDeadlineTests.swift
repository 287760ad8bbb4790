import Foundation
import HTTPTestSupport
import Testing

@Suite("Request deadline: slow requests lose their connection, prompt ones never do")
struct RequestDeadlineTests {
    /// Sends `lines` one at a time, `gap` seconds apart, and returns the seconds until the
    /// server closed the connection (nil if it never did while sending).
    static func trickle(port: Int, head: String, lines: [String], gap: Double) throws -> Double? {
        let client = try RawHTTPClient(port: port, timeout: 5 * RawHTTPClient.slowdown)
        let started = Date()
        try client.send(head)
        for line in lines {
            Thread.sleep(forTimeInterval: gap)
            do { try client.send(line) } catch { return Date().timeIntervalSince(started) }
        }
        return client.waitForClose() ? Date().timeIntervalSince(started) : nil
    }

    @Test func tricklingHeadersLoseTheConnectionAtTheDeadline() async throws {
        // The idle timeout alone never fires: a header line arrives every 0.1 s.
        let server = try TestServer {
            $0.requestTimeout = 0.6
            $0.connectionTimeout = 30
        }
        let port = server.port
        let lines = (0..<60).map { "X-Trickle-\($0): x\r\n" }
        let closedAfter = try await onThread { try Self.trickle(port: port, head: "GET /hello HTTP/1.1\r\nHost: x\r\n", lines: lines, gap: 0.1) }
        let seconds = try #require(closedAfter)
        #expect(seconds >= 0.6)
        #expect(seconds < 3 * RawHTTPClient.slowdown)
        #expect(!server.sawRequest(containing: "/hello"))
        #expect(await eventually { server.server.deadlineDropCount == 1 })
    }

    @Test func tricklingBodyLosesTheConnectionAtTheDeadline() async throws {
        let server = try TestServer {
            $0.requestTimeout = 0.6
            $0.connectionTimeout = 30
        }
        let port = server.port
        let closedAfter = try await onThread {
            try Self.trickle(
                port: port, head: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", lines: Array(repeating: "x", count: 60),
                gap: 0.1)
        }
        let seconds = try #require(closedAfter)
        #expect(seconds >= 0.6)
        #expect(seconds < 3 * RawHTTPClient.slowdown)
        #expect(!server.sawRequest(containing: "/echo"))
    }

    @Test func keepAliveClientAndSlowHandlerOutliveTheDeadline() async throws {
        // The deadline scales with the build's slowdown: the clock also runs while this client
        // reads a response and sleeps before its next request, and under ThreadSanitizer on a
        // busy machine that once took longer than half a second.
        let deadline = 0.5 * RawHTTPClient.slowdown
        let server = try TestServer {
            $0.requestTimeout = deadline
            $0.connectionTimeout = Int(30 * RawHTTPClient.slowdown)
        }
        let port = server.port
        // Many prompt requests on one connection for longer than the deadline, then a handler
        // that takes longer than the deadline: none of it is a late request.
        let statuses = try await onThread { () -> [Int] in
            let client = try RawHTTPClient(port: port)
            var statuses: [Int] = []
            let until = Date().addingTimeInterval(3 * deadline)
            while Date() < until {
                statuses.append(try client.request("GET", "/hello").status)
                Thread.sleep(forTimeInterval: 0.01)
            }
            statuses.append(try client.request("POST", "/slow?ms=\(Int(2000 * deadline))").status)
            statuses.append(try client.request("GET", "/hello").status)
            return statuses
        }
        #expect(statuses.count > 10)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.server.deadlineDropCount == 0)
    }
}
