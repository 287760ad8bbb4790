import DemoData
import Domain
import Foundation
import HTTPTestSupport
import Storage
import Testing

@Suite("Item details that show other items: people and departments, tracks and samples")
struct ItemsRelatedTests {
    static func id(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }

    @Test func aPersonShowsItsDepartmentAndFollowsItsRename() async throws {
        let server = try ItemsTestServer()
        let department = try await server.create("departments", #"{"name":"Sales"}"#)
        let person = try await server.create(
            "people",
            #"{"givenName":"Ada","familyName":"Lovelace","emailAddress":"ada@example.com","phoneNumber":"(408) 555-4301","departmentID":"\#(Self.id(department))"}"#
        )
        let first = try await fetch(port: server.port, person)
        let json = try #require(first.json)
        #expect(json["fullName"] as? String == "Ada Lovelace")
        #expect(json["departmentID"] as? String == Self.id(department))
        let embedded = try #require(json["department"] as? [String: Any])
        #expect(embedded["name"] as? String == "Sales")
        #expect(embedded["detail"] as? String == department)

        let departmentJSON = try #require(try await fetch(port: server.port, department).json)
        #expect((departmentJSON["links"] as? [String: Any])?["people"] as? String == "/v1/people?department=\(Self.id(department))")

        // The department's rename is part of the person's representation: its tag moves too.
        let firstTag = try #require(first.header("ETag"))
        #expect(try await server.send("PATCH", department, json: #"{"name":"Revenue"}"#).status == 200)
        let revalidated = try await fetch(port: server.port, person, headers: [("If-None-Match", firstTag)])
        #expect(revalidated.status == 200)
        #expect((revalidated.json?["department"] as? [String: Any])?["name"] as? String == "Revenue")
        let stale = try await server.send("PATCH", person, json: #"{"givenName":"Augusta"}"#, headers: [("If-Match", firstTag)])
        #expect(stale.status == 412)
        let newTag = try #require(revalidated.header("ETag"))
        let fresh = try await server.send("PATCH", person, json: #"{"givenName":"Augusta"}"#, headers: [("If-Match", newTag)])
        #expect(fresh.status == 200)
        #expect(fresh.json?["fullName"] as? String == "Augusta Lovelace")
    }

    @Test func aDepartmentWithPeopleIsDeletedOnlyOnceEmpty() async throws {
        let server = try ItemsTestServer()
        let sales = try await server.create("departments", #"{"name":"Sales"}"#)
        let support = try await server.create("departments", #"{"name":"Support"}"#)
        let person = try await server.create(
            "people",
            #"{"givenName":"Ada","familyName":"L","emailAddress":"a@b","phoneNumber":"1","departmentID":"\#(Self.id(sales))"}"#)
        let refused = try await server.write("DELETE", sales)
        #expect(refused.status == 409)
        #expect(refused.problemCode == "CONFLICT")
        let moved = try await server.send("PATCH", person, json: #"{"departmentID":"\#(Self.id(support))"}"#)
        #expect((moved.json?["department"] as? [String: Any])?["name"] as? String == "Support")
        #expect(try await server.write("DELETE", sales).status == 204)
    }

    @Test func aSampleIsReadUnderItsTrackWithItsChannelsLevels() async throws {
        let server = try ItemsTestServer()
        let track = try await server.create("tracks", #"{"title":"Song","channels":[{"name":"Left"},{"name":"Right"}]}"#)
        let trackJSON = try #require(try await fetch(port: server.port, track).json)
        let channels = try #require(trackJSON["channels"] as? [[String: Any]])
        #expect(channels.map { $0["name"] as? String } == ["Left", "Right"])
        #expect((trackJSON["links"] as? [String: Any])?["samples"] as? String == "\(track)/samples")

        let trackID = try #require(EntityID(parsing: Self.id(track), kind: .track))
        let sampleID = EntityID.generate(kind: .sample)
        try await server.store.insert(sample: AudioSample(id: sampleID, trackID: trackID, timestampMilliseconds: 12_500, levels: [0.25, -3.5]))
        let path = "\(track)/samples/\(sampleID.rawValue)"
        let sample = try await fetch(port: server.port, path)
        #expect(sample.status == 200)
        let json = try #require(sample.json)
        #expect(json["timestampMilliseconds"] as? Int == 12_500)
        #expect(json["timestamp"] as? String == "12,500 ms")
        let levels = try #require(json["levels"] as? [[String: Any]])
        #expect(levels.map { $0["name"] as? String } == ["Left", "Right"])
        #expect(levels.map { $0["formatted"] as? String } == ["0.25", "-3.50"])
        #expect(levels.first?["channel"] as? String == channels.first?["id"] as? String)
        let links = try #require(json["links"] as? [String: Any])
        #expect(links["self"] as? String == path)
        #expect(links["track"] as? String == track)

        let german = try await fetch(port: server.port, path, headers: [("Accept-Language", "de")])
        #expect(german.json?["timestamp"] as? String == "12.500 ms")
        #expect(german.header("Content-Language") == "de-DE")

        // Renaming a channel shows in the sample and moves its tag; other tracks do not have it.
        let tag = try #require(sample.header("ETag"))
        let rename =
            #"{"channels":[{"id":"\#(channels[0]["id"] as? String ?? "")","name":"L"},{"id":"\#(channels[1]["id"] as? String ?? "")","name":"R"}]}"#
        #expect(try await server.send("PATCH", track, json: rename).status == 200)
        let renamed = try await fetch(port: server.port, path, headers: [("If-None-Match", tag)])
        #expect(renamed.status == 200)
        #expect((renamed.json?["levels"] as? [[String: Any]])?.map { $0["name"] as? String } == ["L", "R"])
        let other = try await server.create("tracks", #"{"title":"Other","channels":[{"name":"Mono"}]}"#)
        #expect(try await fetch(port: server.port, "\(other)/samples/\(sampleID.rawValue)").status == 404)
        // Samples are the server's (`writable: false`): no write method, as their OpenAPI says.
        #expect(try await server.write("DELETE", path).status == 405)
        #expect(try await server.send("PATCH", path, json: #"{"timestampMilliseconds":1}"#).status == 405)
        let list = String(path[..<(path.range(of: "/", options: .backwards)?.lowerBound ?? path.endIndex)])
        let post = try await server.send("POST", list, json: #"{"timestampMilliseconds":1,"levels":[0.5]}"#)
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(try await fetch(port: server.port, "OPTIONS", path).header("Allow") == "GET, HEAD, OPTIONS")
    }
}
