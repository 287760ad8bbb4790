import Domain
import Testing

@testable import Storage

/// The search indexes stay exactly in step with the rows through every kind of write.
@Suite struct SearchIndexTests {
    @Test func indexesMatchTheRowsAfterConcurrentChurn() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(seed: true)
        let products = Array(standardDataset.products.prefix(60))
        // Concurrent writers, several of them on the same items, so batches hold inserts,
        // renames and deletes of one row together, and failing writes in between.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for round in 0..<25 {
                        var product = products[(writer * 7 + round) % products.count]
                        switch round % 4 {
                        case 0, 1:
                            product.name = "Renamed \(writer)-\(round) Zoë"
                            _ = try? await store.update(.product(product), ifVersion: nil)
                        case 2:
                            try? await store.delete(.products, id: product.id, ifVersion: nil)
                        default:
                            _ = try? await store.insert(.product(product))
                            _ = try? await store.insert(.product(Fixtures.product("Fresh \(writer)-\(round) Søren")))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        var department = standardDataset.departments[0]
        department.name = "Ventes Générales"
        _ = try await store.update(.department(department), ifVersion: nil)
        let track = standardDataset.tracks[0]
        try await store.delete(.tracks, id: track.id, ifVersion: nil)

        try store.checkSearchIndexes()
        for query in ["renamed", "zoe", "soren", "fresh", "ventes gen", "keyboard"] {
            let all =
                try store.walk(ListQuery(collection: .products, search: nil, limit: 200)).map(\.item)
                + store.walk(ListQuery(collection: .departments, limit: 200)).map(\.item)
            let expected = Set(
                all.filter { item in
                    guard let keys = SearchKeys.of(item) else { return false }
                    return keys.title.contains(query) || (keys.subtitle?.contains(query) ?? false)
                }.map(\.id))
            let found = Set(
                try store.walk(ListQuery(collection: .products, search: query, limit: 50)).map(\.item.id)
                    + store.walk(ListQuery(collection: .departments, search: query, limit: 50)).map(\.item.id))
            #expect(found == expected, "\(query)")
        }
    }

    @Test func bulkLoadedRowsAreSearchable() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        try store.bulkLoad { loader in
            for index in 0..<50 { try loader.insert(.product(Fixtures.product("Lámpara \(index)"))) }
        }
        try store.checkSearchIndexes()
        #expect(try store.walk(ListQuery(collection: .products, search: "LAMPARA 4")).count == 11)
    }
}

extension SQLiteStore {
    /// FTS5's own check of every search index against its table (throws when they differ).
    func checkSearchIndexes() throws {
        try pool.writeWithoutTransaction { db in
            for table in StoreSchema.searchableTables {
                try db.execute(sql: "INSERT INTO \(table)_search (\(table)_search, rank) VALUES ('integrity-check', 1)")
            }
        }
    }
}
