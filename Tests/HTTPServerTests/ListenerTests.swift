import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

/// The server accepts its connections itself and hands them to libmicrohttpd (`Listener`): the
/// limits libmicrohttpd applied when it accepted must hold the same way.
@Suite("Listener: accepting connections for libmicrohttpd")
struct ListenerTests {
    /// One pool thread and room for two connections.
    static func serverOfTwoConnections() throws -> TestServer {
        try TestServer {
            $0.threads = 1
            $0.connectionLimit = 2
            $0.perIPConnectionLimit = 0
        }
    }

    /// Two connections answered once each, and a third whose request is sent and not answered:
    /// connected (the kernel's backlog holds it) but not accepted.
    static func fillToTheLimit(port: Int) throws -> (first: RawHTTPClient, second: RawHTTPClient, third: RawHTTPClient) {
        let first = try RawHTTPClient(port: port)
        let second = try RawHTTPClient(port: port)
        #expect(try first.request("GET", "/hello").status == 200)
        #expect(try second.request("GET", "/hello").status == 200)
        let third = try RawHTTPClient(port: port, timeout: 0.5)
        try third.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(throws: (any Error).self) { try third.readResponse() }
        return (first, second, third)
    }

    @Test func connectionPastTheLimitWaitsInTheBacklogUntilOneCloses() async throws {
        let server = try Self.serverOfTwoConnections()
        let port = server.port
        try await onThread {
            let (first, second, third) = try Self.fillToTheLimit(port: port)
            // One closes: the waiting connection is taken and its request answered.
            first.abort()
            var answer: HTTPResponse?
            for _ in 0..<20 where answer == nil { answer = try? third.readResponse() }
            #expect(answer?.status == 200)
            #expect(try second.request("GET", "/hello").status == 200)
        }
    }

    /// Connections accepted while the count lags (one just handed over, not yet counted) must not
    /// reach libmicrohttpd's own limit: a connection it refused there left its stop hung.
    @Test func shutdownReturnsAfterConnectionsRacedTheLimit() async throws {
        let server = try Self.serverOfTwoConnections()
        let port = server.port
        try await onThread {
            let (first, second, third) = try Self.fillToTheLimit(port: port)
            first.abort()
            // Accepted at once after the third, while the count still reads one.
            let fourth = try RawHTTPClient(port: port, timeout: 1)
            _ = try? fourth.request("GET", "/hello")
            #expect(try second.request("GET", "/hello").status == 200)
            // The third stays open to the end: it holds the place the fourth raced for.
            withExtendedLifetime(third) {}
        }
        #expect(server.server.shutdown(gracePeriod: 0))
    }

    @Test func aPortInUseIsRefusedWithTheSystemsReason() throws {
        let first = try TestServer()
        var configuration = ServerConfiguration()
        configuration.port = first.port
        do {
            let second = try Server(configuration: configuration, router: Router())
            Issue.record("a second server bound port \(second.port), which the first holds")
        } catch {
            #expect("\(error)" == "cannot listen on 127.0.0.1:\(first.port) (Address already in use)")
        }
    }

    @Test func perAddressLimitStillClosesTheExtraConnection() async throws {
        let server = try TestServer {
            $0.perIPConnectionLimit = 2
        }
        let port = server.port
        try await onThread {
            let first = try RawHTTPClient(port: port)
            let second = try RawHTTPClient(port: port)
            #expect(try first.request("GET", "/hello").status == 200)
            #expect(try second.request("GET", "/hello").status == 200)
            let third = try RawHTTPClient(port: port, timeout: 2)
            #expect(third.waitForClose(), "a third connection from one address was kept")
            #expect(try first.request("GET", "/hello").status == 200)
        }
    }

    @Test func shutdownStopsAcceptingAndReleasesThePort() async throws {
        let server = try TestServer()
        let port = server.port
        #expect(try await onThread { try RawHTTPClient(port: port).request("GET", "/hello").status } == 200)
        server.server.shutdown(gracePeriod: 0)
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port).request("GET", "/hello") }
        // The socket is closed, not only shut: the port can be bound again at once.
        var configuration = ServerConfiguration()
        configuration.port = port
        let again = try Server(configuration: configuration, router: Router())
        #expect(again.port == port)
        again.shutdown(gracePeriod: 0)
    }
}
