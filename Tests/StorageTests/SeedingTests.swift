import DemoData
import Domain
import Foundation
import GRDB
import Testing

@testable import Storage

@Suite struct SeedingTests {
    @Test func newDatabaseIsMigratedAndSeededWithTheStandardDataset() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(seed: true)
        let dataset = DemoData(seed: 1).dataset(volume: .standard)
        let expected: [StoredCollection: Int] = [
            .products: dataset.products.count, .departments: dataset.departments.count, .people: dataset.people.count,
            .articles: dataset.articles.count, .documents: dataset.documents.count, .tracks: dataset.tracks.count,
            .samples: dataset.samples.count,
        ]
        for (collection, count) in expected {
            #expect(try store.count(collection) == count, "\(collection)")
            #expect(try store.version(of: collection) > 0)
        }
        #expect(try store.latestSequence() == Int64(dataset.storedItems.count))
        let keyboard = try #require(try store.item(.products, id: dataset.products[0].id))
        #expect(keyboard.item == .product(dataset.products[0]))
    }

    @Test func seedingIsDeterministic() throws {
        let directory = try TemporaryDirectory()
        let first = try directory.store("a.sqlite", seed: true)
        let second = try directory.store("b.sqlite", seed: true)
        for collection in StoredCollection.allCases where collection != .samples {
            #expect(try first.all(collection) == second.all(collection), "\(collection)")
            #expect(try first.version(of: collection) == second.version(of: collection))
        }
    }

    @Test func existingDatabaseIsNeverSeededAgain() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let empty = try DemoStore(path: path, options: .init())
        try empty.close()
        let reopened = try DemoStore(path: path, options: .init(seedItems: DemoData.standardItems))
        #expect(try reopened.count(.products) == 0)
        #expect(try reopened.latestSequence() == 0)
    }

    @Test func schemaHasTablesSearchIndexesAndChangeLog() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let tables = try store.store.pool.read { db in
            try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        for name in ["products", "departments", "people", "articles", "documents", "tracks", "samples"] {
            #expect(tables.contains("items_\(name)"), "\(name)")
        }
        for name in ["changes", "store_counters", "catalog_fields", "catalog_derivations"] {
            #expect(tables.contains(name), "\(name)")
        }
        for name in ["products", "departments", "people", "articles", "documents", "tracks"] {
            #expect(tables.contains("items_\(name)_search"), "\(name)_search")
        }
        #expect(!tables.contains("items_samples_search"), "samples are not searched")
        let journalMode = try store.store.pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journalMode == "wal")
        // The writer's: GRDB sets NORMAL on a pool's writer after `prepareDatabase` has run.
        let synchronous = try store.store.pool.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(synchronous == 2)  // FULL
    }
}
