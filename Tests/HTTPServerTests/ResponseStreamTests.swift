import Foundation
import HTTPServer
import HTTPTestSupport
import Testing

/// Streamed responses (`Response.eventStream`): bytes pushed from any thread reach the client in
/// order, an idle stream holds no thread, and every way a stream ends (finished, the client gone,
/// a client that never reads, shutdown) releases it.
@Suite("Streamed responses")
struct ResponseStreamTests {
    /// A server whose `/events` opens a stream the test holds (`streams`), `limit` bytes deep.
    final class StreamServer: Sendable {
        let server: Server
        let streams = Locked<[ResponseStream]>([])
        let closedCount = Locked(0)

        init(limit: Int = 1024) throws {
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threads = 2
            var router = Router()
            let streams = streams
            let closed = closedCount
            router.get("/events") { _ in
                let stream = ResponseStream(limit: limit, farewell: Array("event: bye\ndata: {}\n\n".utf8)) {
                    closed.withLock { $0 += 1 }
                }
                streams.withLock { $0.append(stream) }
                return .eventStream(stream)
            }
            router.get("/hello") { _ in .json(Array("{}".utf8)) }
            server = try Server(configuration: configuration, router: router)
        }

        var port: Int { server.port }
        var closed: Int { closedCount.withLock { $0 } }

        /// The `index`th stream opened, once it is.
        func stream(_ index: Int) async throws -> ResponseStream {
            let streams = streams
            #expect(await eventually { streams.withLock { $0.count > index } })
            return try #require(streams.withLock { $0.count > index ? $0[index] : nil })
        }
    }

    static func event(_ data: String) -> [UInt8] { Array("data: \(data)\n\n".utf8) }

    @Test func eventsArriveInOrderAcrossIdleSpellsAndFinishEndsTheResponse() async throws {
        let server = try StreamServer()
        let reader = try EventStreamReader(port: server.port, "/events")
        #expect(reader.head.status == 200)
        #expect(reader.head.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(reader.head.header("X-Accel-Buffering") == "no")
        let stream = try await server.stream(0)
        for round in 0..<3 {
            // Idle first: the reader has found nothing and parked the connection.
            try await Task.sleep(for: .milliseconds(50))
            #expect(stream.send(Self.event("a\(round)")))
            #expect(stream.send(Self.event("b\(round)")))
            #expect(try reader.next()?.data == "a\(round)")
            #expect(try reader.next()?.data == "b\(round)")
        }
        stream.finish(Self.event("last"))
        #expect(try reader.next()?.data == "last")
        #expect(try reader.next() == nil)
        #expect(!stream.send(Self.event("late")))
        #expect(await eventually { server.server.streamCount == 0 && server.closed == 1 })
    }

    @Test func idleStreamsHoldNoThread() async throws {
        let server = try StreamServer()
        // More idle streams than the server has threads.
        let readers = try (0..<8).map { _ in try EventStreamReader(port: server.port, "/events") }
        #expect(readers.allSatisfy { $0.head.status == 200 })
        #expect(await eventually { server.server.streamCount == 8 })
        let answer = try await fetch(port: server.port, "/hello")
        #expect(answer.status == 200)
        let last = try await server.stream(7)
        last.send(Self.event("seventh"))
        #expect(try readers[7].next()?.data == "seventh")
    }

    @Test func aClientThatGoesAwayReleasesItsStreamAtTheNextEvent() async throws {
        let server = try StreamServer()
        var reader: EventStreamReader? = try EventStreamReader(port: server.port, "/events")
        let stream = try await server.stream(0)
        reader?.client.abort()
        reader = nil
        try await Task.sleep(for: .milliseconds(50))
        // A parked connection is not polled: the next event finds the client gone.
        stream.send(Self.event("anyone?"))
        #expect(await eventually { server.server.streamCount == 0 && server.closed == 1 })
        #expect(!stream.isOpen)
    }

    @Test func aClientThatNeverReadsIsDroppedNotTheServer() async throws {
        let server = try StreamServer(limit: 64 * 1024)
        let reader = try EventStreamReader(port: server.port, "/events")
        let stream = try await server.stream(0)
        let line = Self.event(String(repeating: "x", count: 1000))
        var sent = 0
        // The socket's buffers fill first, then the stream's own, then it refuses.
        while stream.send(line), sent < 100_000 { sent += 1 }
        #expect(sent < 100_000)
        #expect(!stream.isOpen)
        _ = reader
        #expect(await eventually(timeout: 30) { server.server.streamCount == 0 })
        #expect(try await fetch(port: server.port, "/hello").status == 200)
    }

    @Test func shutdownEndsEveryStreamWithItsFarewell() async throws {
        let server = try StreamServer()
        let readers = try (0..<3).map { _ in try EventStreamReader(port: server.port, "/events") }
        #expect(await eventually { server.server.streamCount == 3 })
        let clean = try await onThread { server.server.shutdown(gracePeriod: 5) }
        #expect(clean)
        for reader in readers {
            let event = try reader.next()
            #expect(event?.event == "bye")
            #expect(try reader.next() == nil)
        }
        #expect(server.closed == 3)
    }
}
