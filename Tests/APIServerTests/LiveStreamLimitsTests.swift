import APIServer
import Foundation
import HTTPTestSupport
import Testing

/// How live lists end and refuse: `--max-streams`, heartbeats that find clients gone, a token
/// older than the change log, and shutdown.
@Suite("Live lists: limits and endings")
struct LiveStreamLimitsTests {
    static let ticket = #"{"subject":"Printer","status":"open","priority":2,"opened":"2026-11-20"}"#

    func open(_ server: CatalogTestServer, _ target: String) async throws -> EventStreamReader {
        let port = server.port
        return try await onThread { try EventStreamReader(port: port, target) }
    }

    @Test func streamsBeyondTheMaximumAre503WithRetryAfterUntilOneCloses() async throws {
        let server = try CatalogTestServer.tickets(streams: StreamSettings(maximum: 2, heartbeat: 0.1))
        var first: EventStreamReader? = try await open(server, "/v1/tickets/changes")
        let second = try await open(server, "/v1/tickets/changes?sort=-priority")
        #expect(first?.head.status == 200 && second.head.status == 200)
        let refused = try await open(server, "/v1/tickets/changes")
        #expect(refused.head.status == 503)
        #expect(refused.head.header("Retry-After").flatMap(Int.init).map { (2...10).contains($0) } == true)
        #expect(refused.head.json?["code"] as? String == "TOO_MANY_STREAMS")
        // A client that went away is found at the next heartbeat, and its place is free again.
        first?.client.abort()
        first = nil
        var admitted = false
        let deadline = Date().addingTimeInterval(10 * RawHTTPClient.slowdown)
        while !admitted, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
            admitted = try await open(server, "/v1/tickets/changes").head.status == 200
        }
        #expect(admitted)
    }

    @Test func anIdleStreamGetsACommentLineEveryHeartbeat() async throws {
        let server = try CatalogTestServer.tickets(streams: StreamSettings(heartbeat: 0.1))
        // Before the stream exists: its beats come 0.1 s, 0.2 s and 0.3 s after it opened.
        let started = Date()
        let reader = try await open(server, "/v1/tickets/changes")
        let opening = try await onThread { try reader.next() }
        #expect(opening?.retry != nil)
        for _ in 0..<3 {
            let beat = try await onThread { try reader.next() }
            #expect(beat?.comment == "")
        }
        #expect(Date().timeIntervalSince(started) >= 0.25)
    }

    @Test func aTokenOlderThanTheChangeLogGetsOneExpiredEventAndTheStreamEnds() async throws {
        let server = try CatalogTestServer.tickets(changeRetention: 5)
        let old = try #require(try await server.get("/v1/tickets/changes").json?["next"] as? String)
        for _ in 0..<20 { _ = try await server.create("tickets", Self.ticket) }
        // The feed answers 410 for it; a stream says so in its one event.
        #expect(try await server.get("/v1/tickets/changes?since=\(old)").status == 410)
        let reader = try await open(server, "/v1/tickets/changes?since=\(old)")
        #expect(reader.head.status == 200)
        let events = try await onThread { try reader.events { _ in false } }
        #expect(events.map(\.event) == [nil, "expired"])
        #expect(reader.isEnded)
    }

    @Test func shutdownEndsEveryStreamWithAShutdownEvent() async throws {
        let server = try CatalogTestServer.tickets()
        let readers = [try await open(server, "/v1/tickets/changes"), try await open(server, "/v1/tickets/changes?q=printer")]
        #expect(await eventually { server.live.application.server.streamCount == 2 })
        let application = server.live.application
        _ = try await onThread { application.shutdown(gracePeriod: 5) }
        for reader in readers {
            let events = try await onThread { try reader.events { _ in false } }
            #expect(events.last?.event == "shutdown")
            #expect(reader.isEnded)
        }
    }
}

extension LiveStreamLimitsTests {
    @Test func aRevokedKeyEndsItsStreamsWithinASecondAndOtherKeysStreamsGoOn() async throws {
        let server = try CatalogTestServer.tickets()
        let revoked = try server.keys.create(name: "screen", scopes: ["read"], at: 0)
        let kept = try server.keys.create(name: "other", scopes: ["read"], at: 0)
        let port = server.port
        let ended = try await onThread {
            try EventStreamReader(port: port, "/v1/tickets/changes", headers: [("Authorization", "Bearer " + revoked.secret)])
        }
        let going = try await onThread {
            try EventStreamReader(port: port, "/v1/tickets/changes", headers: [("Authorization", "Bearer " + kept.secret)])
        }
        #expect(ended.head.status == 200 && going.head.status == 200)
        _ = try await onThread { try ended.next() }
        _ = try await onThread { try going.next() }
        #expect(try server.keys.revoke(id: revoked.key.id, at: 1))
        let revokedAt = Date()
        let events = try await onThread { try ended.events { _ in false } }
        #expect(events.last?.event == "revoked")
        #expect(ended.isEnded)
        // Within a second and the half second between looks; a sanitized build runs slower.
        #expect(Date().timeIntervalSince(revokedAt) < 1.5 * RawHTTPClient.slowdown)
        _ = try await server.create("tickets", Self.ticket)
        let change = try await onThread { try going.events { $0.event == "changes" }.last }
        #expect(change?.event == "changes")
    }
}
