import DemoData
import Domain
import Foundation
import HTTPTestSupport
import Storage
import Testing

@Suite("A track's samples page: cached without reading the track, never for a gone track")
struct SamplesPageCacheTests {
    static func trackWithSample(_ server: ItemsTestServer) async throws -> String {
        let track = try await server.create("tracks", #"{"title":"Song","channels":[{"name":"Left"}]}"#)
        let trackID = try #require(EntityID(parsing: String(track.split(separator: "/").last ?? ""), kind: .track))
        try await server.store.insert(sample: AudioSample(id: .generate(kind: .sample), trackID: trackID, timestampMilliseconds: 1, levels: [0.5]))
        return track
    }

    @Test func aDeletedTracksCachedPageIs404() async throws {
        let server = try ItemsTestServer()
        let track = try await Self.trackWithSample(server)
        let page = try await fetch(port: server.port, "\(track)/samples?view=table")
        #expect(page.status == 200)
        #expect(try await fetch(port: server.port, "\(track)/samples?view=table").body == page.body)
        #expect(try await server.write("DELETE", track).status == 204)
        #expect(try await fetch(port: server.port, "\(track)/samples?view=table").status == 404)
    }

    @Test func aRenamedChannelIsNotServedFromTheCachedTable() async throws {
        let server = try ItemsTestServer()
        let track = try await Self.trackWithSample(server)
        let before = try await fetch(port: server.port, "\(track)/samples?view=table")
        #expect(before.text.contains("Left"))
        let channels = try #require(try await fetch(port: server.port, track).json?["channels"] as? [[String: Any]])
        let channel = try #require(channels.first?["id"] as? String)
        let renamed = try await server.send("PATCH", track, json: #"{"channels":[{"id":"\#(channel)","name":"Centre"}]}"#)
        #expect(renamed.status == 200)
        let after = try await fetch(port: server.port, "\(track)/samples?view=table")
        #expect(after.text.contains("Centre"))
        #expect(!after.text.contains("Left"))
    }

    @Test func ifNoneMatchStarOnAMissingTrackIs404() async throws {
        let server = try ItemsTestServer()
        let missing = EntityID.generate(kind: .track).rawValue
        let response = try await fetch(port: server.port, "/v1/tracks/\(missing)/samples", headers: [("If-None-Match", "*")])
        #expect(response.status == 404)
        let track = try await Self.trackWithSample(server)
        #expect(try await fetch(port: server.port, "\(track)/samples", headers: [("If-None-Match", "*")]).status == 304)
    }
}
