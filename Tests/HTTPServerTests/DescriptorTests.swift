import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server and its test clients share one process, hence one table of file descriptors: a
/// client that closes a descriptor twice can close one of libmicrohttpd's sockets, and the
/// library aborts when it later fails to remove that socket from its epoll set
/// ("Failed to remove FD from epoll set", daemon.c:3831).
@Suite("File descriptors shared by the server and its test clients")
struct DescriptorTests {
    /// A port with a bound socket that never listens: connecting to it is refused at once.
    static func refusedPort() throws -> (socket: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        try #require(bound == 0)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// One pool thread, a request suspended by an async handler, connections coming and going,
    /// and clients whose connects are refused, all at once, for a few seconds.
    @Test func failedConnectsLeaveTheServersSocketsAlone() async throws {
        // The idle connections below wait out the storm, which on a loaded machine (the whole
        // suite in parallel, or a sanitizer) outlasted the 10 s idle timeout: no timeouts here.
        let server = try TestServer {
            $0.threads = 1
            $0.connectionTimeout = 0
            $0.requestTimeout = 0
        }
        let port = server.port
        let (holder, refused) = try Self.refusedPort()
        defer { close(holder) }
        let seconds = 2.0
        async let suspended = fetch(port: port, "POST", "/slow?ms=\(Int(seconds * 1000))")
        async let refusing: Void = onThread {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline { _ = try? RawHTTPClient(port: refused) }
        }
        async let visiting: Int = onThread {
            var failures = 0
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                do {
                    let client = try RawHTTPClient(port: port)
                    if try client.request("GET", "/hello").status != 200 { failures += 1 }
                } catch {
                    failures += 1
                }
            }
            return failures
        }
        // Idle keep-alive connections opened during the storm must still work after it.
        let idle = try await onThread {
            try (0..<20).map { _ in
                let client = try RawHTTPClient(port: port)
                _ = try client.request("GET", "/hello")
                return client
            }
        }
        try await refusing
        #expect(try await visiting == 0)
        #expect(try await suspended.status == 200)
        let idleFailures = try await onThread {
            idle.filter { client in (try? client.request("GET", "/hello").status) != 200 }.count
        }
        #expect(idleFailures == 0)
        #expect(server.server.shutdown(gracePeriod: 2))
    }
}
