import Definitions
import Domain
import Foundation
import HTTPTestSupport
import Storage
import Testing

@testable import APIServer

@Suite("Detail cache: repeated details come from memory, never stale")
struct DetailCacheTests {
    static let product = #"{"name":"Walnut Desk","price":{"minorUnits":45000,"currency":"EUR"}}"#

    @Test func aPatchedItemIsNeverServedFromAnOlderEntry() async throws {
        let server = try ItemsTestServer()
        let path = try await server.create("products", Self.product)
        let first = try await fetch(port: server.port, path)
        let again = try await fetch(port: server.port, path)
        #expect(first.status == 200)
        #expect(again.body == first.body, "a repeated detail has the same bytes")
        #expect(try await server.send("PATCH", path, json: #"{"name":"Oak Desk"}"#).status == 200)
        let patched = try await fetch(port: server.port, path)
        #expect(patched.json?["name"] as? String == "Oak Desk")
        #expect(patched.header("ETag") != first.header("ETag"))
    }

    @Test func aDeletedItemIs404AfterItsDetailWasKept() async throws {
        let server = try ItemsTestServer()
        let path = try await server.create("products", Self.product)
        #expect(try await fetch(port: server.port, path).status == 200)
        #expect(try await server.write("DELETE", path).status == 204)
        #expect(try await fetch(port: server.port, path).status == 404)
    }

    @Test func eachLocaleKeepsItsOwnBytes() async throws {
        let server = try ItemsTestServer()
        let path = try await server.create("products", Self.product)
        let english = try await fetch(port: server.port, path, headers: [("Accept-Language", "en-US")])
        let german = try await fetch(port: server.port, path, headers: [("Accept-Language", "de-DE")])
        let englishAgain = try await fetch(port: server.port, path, headers: [("Accept-Language", "en-US")])
        #expect(english.header("Content-Language") == "en-US")
        #expect(german.header("Content-Language") == "de-DE")
        #expect(german.body != english.body)
        #expect(englishAgain.body == english.body)
    }

    @Test func aKeptDetailAnswersIfNoneMatchWith304() async throws {
        let server = try ItemsTestServer()
        let path = try await server.create("products", Self.product)
        let first = try await fetch(port: server.port, path)
        let tag = try #require(first.header("ETag"))
        let revalidated = try await fetch(port: server.port, path, headers: [("If-None-Match", tag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.header("ETag") == tag)
        #expect(revalidated.body.isEmpty)
        let otherTag = try await fetch(port: server.port, path, headers: [("If-None-Match", "\"v1.de-DE\"")])
        #expect(otherTag.status == 200)
    }

    @Test func aKeptSampleIsStill404UnderAnotherTrack() async throws {
        let server = try ItemsTestServer()
        let track = try await server.create("tracks", #"{"title":"Song","channels":[{"name":"Left"}]}"#)
        let other = try await server.create("tracks", #"{"title":"Other","channels":[{"name":"Mono"}]}"#)
        let trackID = try #require(EntityID(parsing: String(track.split(separator: "/").last ?? ""), kind: .track))
        let sampleID = EntityID.generate(kind: .sample)
        try await server.store.insert(sample: AudioSample(id: sampleID, trackID: trackID, timestampMilliseconds: 1, levels: [0.5]))
        #expect(try await fetch(port: server.port, "\(track)/samples/\(sampleID.rawValue)").status == 200)
        #expect(try await fetch(port: server.port, "\(other)/samples/\(sampleID.rawValue)").status == 404)
    }

    static let product1 = EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 1)
    static let product2 = EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 2)
    static let track1 = EntityID(kind: .track, timestampMilliseconds: 1, randomBits: 1)
    static let track2 = EntityID(kind: .track, timestampMilliseconds: 1, randomBits: 2)

    /// A sample's key reads the samples' and the tracks' versions (1 and 12 unless changed).
    static let catalog = try? DefinitionLoader.demo()

    static func key(
        collection: String = "samples", id: EntityID = product1, parent: EntityID? = track1,
        versions: [String: Int64] = ["samples": 1, "tracks": 12], locale: RenderLocale = .enUS
    ) -> String {
        guard let catalog, let definition = catalog.collection(named: collection) else { return "" }
        return DetailCacheKey.make(collection: ServedCollection(definition, catalog: catalog), id: id, parent: parent, locale: locale) {
            versions[$0] ?? 0
        }
    }

    @Test(arguments: [
        ("another collection", key(collection: "products")),
        ("another item", key(id: product2)),
        ("another track", key(parent: track2)),
        ("no track", key(parent: nil)),
        ("a later version of the item's collection", key(versions: ["samples": 2, "tracks": 12])),
        ("a later version of a collection it reads", key(versions: ["samples": 1, "tracks": 13])),
        ("versions that concatenate alike", key(versions: ["samples": 11, "tracks": 2])),
        ("another locale", key(locale: .deDE)),
    ])
    func keysDifferByEverythingThatShapesTheBytes(change: String, changed: String) {
        #expect(changed != Self.key(), "\(change)")
    }
}
