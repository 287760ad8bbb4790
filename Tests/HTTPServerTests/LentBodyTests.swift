import HTTPTestSupport
import Testing

@Suite("Bodies lent to libmicrohttpd (live server)")
struct LentBodyTests {
    /// The echo's answer holds the only reference to its body once the handler has returned, and
    /// 8 MiB is more than loopback's send buffer takes at once: most of it goes out after the
    /// response was queued and the request's own values were gone, from the storage the lent
    /// box keeps alive until libmicrohttpd destroys the response.
    @Test func aBodyLargerThanTheSendBufferArrivesWholeAfterItsHandlerReturned() async throws {
        let size = 8 * 1024 * 1024
        let server = try TestServer { $0.maxBodySize = size }
        for seed in [UInt8(7), 201] {
            let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) ^ seed }
            let response = try await fetch(port: server.port, "POST", "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == String(size))
            #expect(response.body.count == size)
            #expect(response.body == body)
        }
    }

    @Test func emptyAndSmallBodiesAnswerAsBefore() async throws {
        let server = try TestServer()
        let deleted = try await fetch(port: server.port, "DELETE", "/items/x")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let hello = try await fetch(port: server.port, "/hello")
        #expect(hello.body == Array("hello".utf8))
        #expect(hello.header("Content-Length") == "5")
    }
}
