import Definitions
import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

/// The PostgreSQL store on a real server: the demo's data in, pages, items, writes, the feed,
/// and two stores (two instances) on one database seeing each other's commits.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresStoreTests {
    static let catalog: Catalog? = try? DefinitionLoader.demo()

    @Test func aNewDatabaseGetsTheDemoDataAndPagesWalkItInOrder() throws {
        let catalog = try #require(Self.catalog)
        let store = try PostgresStore(
            url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: .init(seedItems: DemoData.standardItems))
        defer { store.close() }
        let products = try #require(catalog.collection(named: "products"))
        var query = CatalogQuery(collection: products, sort: products.defaultSort, limit: 50)
        var seen: [String] = []
        while true {
            let page = try store.page(query)
            seen += page.items.map(\.item.id.rawValue)
            guard let next = page.nextAfter else { break }
            query.after = next
        }
        #expect(seen.count == DemoData(seed: 1).dataset().products.count)
        #expect(Set(seen).count == seen.count)
        #expect(try store.version(of: "products") > 0)
        let first = try #require(try store.page(CatalogQuery(collection: products, sort: products.defaultSort, limit: 1)).items.first)
        #expect(try store.item("products", id: first.item.id) == first)
    }

    @Test func everyConnectionCommitsDurablyWhateverTheDatabaseSays() throws {
        let url = try PostgresTestServer.freshDatabase()
        let name = String(url.split(separator: "/").last ?? "")
        try PostgresTestServer.connect().execute("ALTER DATABASE \(name) SET synchronous_commit = off")
        let connection = try PostgresConnection(url: url)
        #expect(try connection.execute("SHOW synchronous_commit").text(0, 0) == "on")
    }

    @Test func writesBumpVersionsAndAnotherInstanceSeesThemThroughItsListener() async throws {
        let catalog = try #require(Self.catalog)
        let url = try PostgresTestServer.freshDatabase()
        let one = try PostgresStore(url: url, catalog: catalog)
        let two = try PostgresStore(url: url, catalog: catalog)
        defer {
            one.close()
            two.close()
        }
        let products = try #require(catalog.collection(named: "products"))
        let item = Item(
            id: EntityID.generate(kind: products.kind), in: products,
            [
                "name": .text("Lamp"), "shortDescription": .text("Warm"), "longDescription": .text("A lamp."),
                "price": .money(Money(minorUnits: 1_000, currency: "USD")),
            ])
        #expect(try two.version(of: "products") == 0)
        let written = try await one.insert(item, into: "products")
        #expect(try one.version(of: "products") == written.version)
        // Two learns of it from the notification, within a second.
        let deadline = Date().addingTimeInterval(1)
        while try two.version(of: "products") != written.version && Date() < deadline { usleep(10_000) }
        #expect(try two.version(of: "products") == written.version)
        let feed = try two.changes("products", after: 0, limit: 10)
        #expect(feed.changes.map(\.id) == [item.id])
        await #expect(throws: StoreError.versionMismatch(current: written.version)) {
            try await two.update(item, in: "products", ifVersion: written.version + 1)
        }
        try await two.delete(item.id, from: "products", ifVersion: written.version)
        #expect(try one.item("products", id: item.id) == nil)
    }
}
