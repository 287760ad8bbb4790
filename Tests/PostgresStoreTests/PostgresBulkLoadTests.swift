import Definitions
import DemoData
import Domain
import Foundation
import Testing

@testable import Storage

/// `generate` and `import` into PostgreSQL: one transaction, all of it or nothing, refusals that
/// leave no trace, and every instance told at the commit.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresBulkLoadTests {
    struct Stopped: Error {}

    static let catalog: Catalog? = try? DefinitionLoader.demo()

    static func products(_ count: Int, seed: UInt64, in catalog: Catalog) throws -> [Item] {
        let collection = try #require(catalog.collection(named: "products"))
        return DemoData(seed: seed).products(count: count).map { DemoItems.product($0, in: collection) }
    }

    static func count(_ store: PostgresStore, _ collection: String) throws -> Int {
        let definition = try #require(store.catalog.collection(named: collection))
        var query = CatalogQuery(collection: definition, sort: definition.defaultSort, limit: 200)
        var seen = 0
        while true {
            let page = try store.page(query)
            seen += page.items.count
            guard let next = page.nextAfter else { return seen }
            query.after = next
        }
    }

    /// A search plans for its text from the table's statistics: a load leaves them made.
    @Test func aLoadLeavesTheLoadedTablesAnalyzed() throws {
        let catalog = try #require(Self.catalog)
        let url = try PostgresTestServer.freshDatabase()
        let store = try PostgresStore(url: url, catalog: catalog, options: .init())
        defer { store.close() }
        let connection = try PostgresConnection(url: url)
        let analyzed = "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'items_products' AND last_analyze IS NOT NULL"
        #expect(try connection.execute(analyzed).integer(0, 0) == 0)
        let products = try Self.products(30, seed: 7, in: catalog)
        let collection = try #require(catalog.collection(named: "products"))
        try store.bulkLoad { loader in
            for product in products { try loader.insert(product, into: collection.name) }
        }
        #expect(try connection.execute(analyzed).integer(0, 0) == 1)
        #expect(try connection.execute("SELECT reltuples FROM pg_class WHERE relname = 'items_products'").double(0, 0) == 30)
    }

    @Test func aLoadCommitsOnceAndAnotherInstanceSeesIt() throws {
        let catalog = try #require(Self.catalog)
        let url = try PostgresTestServer.freshDatabase()
        let loading = try PostgresStore(url: url, catalog: catalog, options: .init())
        let serving = try PostgresStore(url: url, catalog: catalog, options: .init())
        defer {
            loading.close()
            serving.close()
        }
        let items = try Self.products(300, seed: 3, in: catalog)
        let loaded = try loading.bulkLoad { loader in
            for item in items { try loader.insert(item, into: "products") }
            // An id that is there already is refused, and the load goes on.
            #expect(throws: StoreError.self) { try loader.insert(items[0], into: "products") }
            return loader.insertedCount
        }
        #expect(loaded == 300)
        #expect(try Self.count(serving, "products") == 300)
        let deadline = Date().addingTimeInterval(1)
        while try serving.version(of: "products") != loading.version(of: "products") && Date() < deadline { usleep(10_000) }
        #expect(try serving.version(of: "products") == loading.version(of: "products"))
        #expect(try serving.version(of: "products") > 0)
        // Every insert is in the feed (the retention is larger than the load).
        let feed = try serving.changes("products", after: 0, limit: 1_000)
        #expect(Set(feed.changes.map(\.id)) == Set(items.map(\.id)))
    }

    @Test func aLoadThatFailsWritesNothing() throws {
        let catalog = try #require(Self.catalog)
        let store = try PostgresStore(url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: .init())
        defer { store.close() }
        let items = try Self.products(50, seed: 4, in: catalog)
        #expect(throws: Stopped.self) {
            try store.bulkLoad { loader in
                for item in items { try loader.insert(item, into: "products") }
                throw Stopped()
            }
        }
        #expect(try Self.count(store, "products") == 0)
        #expect(try store.version(of: "products") == 0)
        #expect(try store.changes("products", after: 0, limit: 10).changes.isEmpty)
    }

    @Test func aReferenceToNothingIsRefusedAndTheRestCommits() throws {
        let catalog = try #require(Self.catalog)
        let store = try PostgresStore(url: try PostgresTestServer.freshDatabase(), catalog: catalog, options: .init())
        defer { store.close() }
        let people = try #require(catalog.collection(named: "people"))
        let departments = try #require(catalog.collection(named: "departments"))
        let dataset = DemoData(seed: 5).dataset(
            volume: .init(products: 0, departments: 2, people: 6, articles: 0, documents: 0, tracks: 0, samples: 0))
        let orphan = DemoItems.person(dataset.people[0], in: people)
        try store.bulkLoad { loader in
            // Its department is not loaded yet: refused, nothing of it written.
            #expect(throws: StoreError.self) { try loader.insert(orphan, into: "people") }
            for department in dataset.departments { try loader.insert(DemoItems.department(department, in: departments), into: "departments") }
            for person in dataset.people { try loader.insert(DemoItems.person(person, in: people), into: "people") }
        }
        #expect(try Self.count(store, "departments") == 2)
        #expect(try Self.count(store, "people") == 6)
        #expect(try store.item("people", id: orphan.id)?.version != nil)
    }
}
