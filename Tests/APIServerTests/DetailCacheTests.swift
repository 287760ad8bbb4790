import Definitions
import DemoData
import Domain
import Foundation
import HTTPTestSupport
import Storage
import Testing

@testable import APIServer

@Suite("Detail cache: repeated details come from memory, never stale, and outlive writes to other items")
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

    /// A kept detail is answered from memory while other items of its collection are written,
    /// and made again once it is itself written.
    @Test func aKeptDetailOutlivesWritesToOtherItems() async throws {
        let server = try ItemsTestServer()
        let kept = try await server.create("products", Self.product)
        let other = try await server.create("products", #"{"name":"Pine Shelf","price":{"minorUnits":9000,"currency":"EUR"}}"#)
        let first = try await fetch(port: server.port, kept)
        let before = try await Self.lookups(server.port)
        #expect(try await server.send("PATCH", other, json: #"{"name":"Birch Shelf"}"#).status == 200)
        _ = try await server.create("products", #"{"name":"Ash Stool","price":{"minorUnits":3000,"currency":"EUR"}}"#)
        #expect(try await server.write("DELETE", other).status == 204)
        let again = try await fetch(port: server.port, kept)
        #expect(again.body == first.body)
        #expect(again.header("ETag") == first.header("ETag"))
        let after = try await Self.lookups(server.port)
        #expect(after.hits == before.hits + 1, "answered from memory after three writes to other items")
        #expect(after.misses == before.misses)

        #expect(try await server.send("PATCH", kept, json: #"{"name":"Oak Desk"}"#).status == 200)
        let patched = try await fetch(port: server.port, kept)
        #expect(patched.json?["name"] as? String == "Oak Desk")
        #expect(try await Self.lookups(server.port).misses == after.misses + 1)
    }

    /// Another store on the same database (another process on the file, another instance on
    /// PostgreSQL) writes the item: the kept detail is made again from the change log.
    @Test func aWriteByAnotherStoreOnTheDatabaseRemakesTheKeptDetail() async throws {
        let server = try ItemsTestServer()
        let path = try await server.create("products", Self.product)
        let first = try await fetch(port: server.port, path)
        #expect(try await fetch(port: server.port, path).body == first.body)
        let other = try server.opened.another()
        defer { other.close() }
        let id = try #require(EntityID(parsing: String(path.split(separator: "/").last ?? ""), kind: .product))
        let products = try #require(server.store.catalog.collection(named: "products"))
        let slot = try #require(products.fields.first { $0.name == "name" }?.slot)
        var item = try #require(try other.store.item("products", id: id)).item
        item.values[slot] = .text("Written Elsewhere")
        _ = try await other.store.update(item, in: "products", ifVersion: nil)
        // PostgreSQL tells the server by a notification: allow it to arrive.
        var seen = try await fetch(port: server.port, path)
        let deadline = Date().addingTimeInterval(10)
        while seen.json?["name"] as? String != "Written Elsewhere" && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            seen = try await fetch(port: server.port, path)
        }
        #expect(seen.json?["name"] as? String == "Written Elsewhere")
        #expect(seen.header("ETag") != first.header("ETag"))
    }

    /// The details cache's hits and misses so far, from `/metrics`.
    static func lookups(_ port: Int) async throws -> (hits: Int, misses: Int) {
        let text = try await fetch(port: port, "/metrics").text
        func value(_ result: String) -> Int {
            let line = text.split(separator: "\n").first { line in
                line.hasPrefix("rowserver_response_cache_lookups_total{") && line.contains(#"cache="details""#)
                    && line.contains(#"result="\#(result)""#)
            }
            return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
        }
        return (value("hit"), value("miss"))
    }

    static let product1 = EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 1)
    static let product2 = EntityID(kind: .product, timestampMilliseconds: 1, randomBits: 2)
    static let track1 = EntityID(kind: .track, timestampMilliseconds: 1, randomBits: 1)
    static let track2 = EntityID(kind: .track, timestampMilliseconds: 1, randomBits: 2)

    static let catalog = try? DefinitionLoader.demo()

    static func key(collection: String = "samples", id: EntityID = product1, parent: EntityID? = track1, locale: RenderLocale = .enUS) -> String {
        guard let catalog, let definition = catalog.collection(named: collection) else { return "" }
        return DetailCacheKey.make(collection: ServedCollection(definition, catalog: catalog), id: id, parent: parent, locale: locale)
    }

    @Test(arguments: [
        ("another collection", key(collection: "products")),
        ("another item", key(id: product2)),
        ("another track", key(parent: track2)),
        ("no track", key(parent: nil)),
        ("another locale", key(locale: .deDE)),
    ])
    func keysDifferByEverythingThatShapesTheBytes(change: String, changed: String) {
        #expect(changed != Self.key(), "\(change)")
    }
}
