import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// The search index keyed by the title order (`TitleOrder`): whatever the writes, every row has
/// an `ord`, the ords follow the title order, the index holds each row under its `ord` with its
/// current texts, and a search in title order finds what a row-by-row check finds, in order.
@Suite struct TitleOrderTests {
    /// Fails unless every product has an ord, the ords increase along `(k_name, id)`, and FTS5
    /// finds its index and the rows it was made from in agreement.
    static func expectOrdered(_ path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('integrity-check', 1)")
            let ords = try Int64?.fetchAll(db, sql: "SELECT ord FROM items_products ORDER BY k_name, id")
            #expect(!ords.isEmpty)
            #expect(!ords.contains(nil), "a row without an ord")
            let placed = ords.compactMap { $0 }
            #expect(zip(placed, placed.dropFirst()).allSatisfy { $0 < $1 }, "ords out of the title order")
        }
    }

    static func names(_ store: DemoStore, search: String, descending: Bool, limit: Int) throws -> [String] {
        try store.walk(ListQuery(collection: .products, sort: [SortKey("name", descending: descending)], search: search, limit: limit))
            .compactMap { item in
                guard case .product(let product) = item.item else { return nil }
                return product.name
            }
    }

    /// The names that contain `text` (folded as the store folds: these are ASCII), in title order.
    static func expected(_ names: [String], _ text: String, descending: Bool) -> [String] {
        let found = names.filter { $0.lowercased().contains(text) }.sorted { $0.lowercased().utf8.lexicographicallyPrecedes($1.lowercased().utf8) }
        return descending ? found.reversed() : found
    }

    @Test func rowsAddedIntoOneGapAreSpreadOutAndStayInOrder() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var names = ["Gap A", "Gap B"]
        for name in names { _ = try await store.insert(.product(Fixtures.product(name))) }
        // Each name sorts after the one before it and before "Gap B": every row halves the same
        // gap, which 2^32 apart runs out after 32 (indexing the backlog places the rows so far).
        var name = "Gap A "
        for index in 0..<70 {
            name += "1"
            names.append(name)
            _ = try await store.insert(.product(Fixtures.product(name)))
            if index % 10 == 9 { try store.store.applySearchBacklog() }
        }
        try store.store.applySearchBacklog()
        try Self.expectOrdered(directory.path("test.sqlite"))
        for descending in [false, true] {
            for text in ["gap", "111", "gap a 1", "1", "b"] {
                for limit in [1, 7, 100] {
                    #expect(
                        try Self.names(store, search: text, descending: descending, limit: limit)
                            == Self.expected(names, text, descending: descending),
                        "\(text), descending \(descending), limit \(limit)")
                }
            }
        }
    }

    @Test func insertsRenamesAndDeletesInOneBatchKeepTheIndexInOrder() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let words = ["Oak", "Elm", "Ash"]
        // Concurrent writers, so group commits hold inserts, renames and deletes of one
        // another's rows together; names repeat so rows fall into the same gaps.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                let seed = UInt64(writer)
                group.addTask {
                    var random = SeededRandom(seed: seed &* 7 &+ 5)
                    var mine: [Product] = []
                    for step in 0..<60 {
                        let name = "\(words[random.next(below: 3)]) \(words[random.next(below: 3)]) \(random.next(below: 4))"
                        switch random.next(below: 4) {
                        case 0 where !mine.isEmpty:
                            var product = mine.removeLast()
                            product.name = name + " renamed \(writer) \(step)"
                            _ = try await store.update(.product(product), ifVersion: nil)
                            mine.insert(product, at: 0)
                        case 1 where !mine.isEmpty:
                            let product = mine.removeFirst()
                            try await store.delete(.products, id: product.id, ifVersion: nil)
                        default:
                            let product = Fixtures.product(name)
                            _ = try await store.insert(.product(product))
                            mine.append(product)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        try store.store.applySearchBacklog()
        try Self.expectOrdered(directory.path("test.sqlite"))
        let all = try store.walk(ListQuery(collection: .products, limit: 1_000)).compactMap { item -> String? in
            guard case .product(let product) = item.item else { return nil }
            return product.name
        }
        #expect(all.count > 20)
        for descending in [false, true] {
            for text in ["oak", "elm ash", "renamed", "1", "k e"] {
                for limit in [3, 1_000] {
                    let found = try Self.names(store, search: text, descending: descending, limit: limit)
                    // Names repeat: the same names in the same order of names (ids break ties).
                    #expect(found == Self.expected(found, text, descending: descending), "\(text) out of order")
                    #expect(found.sorted() == all.filter { $0.lowercased().contains(text) }.sorted(), "\(text), limit \(limit)")
                }
            }
        }
    }

    @Test func aFileWhoseSearchIndexIsKeyedByRowIsNumberedWhenOpened() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        var names: [String] = []
        do {
            let store = try directory.store()
            for index in 0..<40 {
                let name = "Lamp \(String(index * 7 % 40, radix: 3))"
                names.append(name)
                _ = try await store.insert(.product(Fixtures.product(name)))
            }
            try store.store.applySearchBacklog()
            try store.store.close()
        }
        // As a server from before the title order left it: no ord, the index keyed by pk.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DROP INDEX items_products__ord")
            try db.execute(sql: "DROP TABLE items_products_search")
            try db.execute(sql: "ALTER TABLE items_products DROP COLUMN ord")
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE items_products_search USING fts5(
                        title_key, subtitle_key, content='items_products', content_rowid='pk', tokenize='trigram case_sensitive 1')
                    """)
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search) VALUES ('rebuild')")
        }
        try queue.close()
        let store = try directory.store()
        try Self.expectOrdered(path)
        for descending in [false, true] {
            for text in ["lamp", "12", "lamp 2", "0"] {
                #expect(
                    try Self.names(store, search: text, descending: descending, limit: 4) == Self.expected(names, text, descending: descending),
                    "\(text), descending \(descending)")
            }
        }
    }
}
