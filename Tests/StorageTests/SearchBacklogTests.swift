import Domain
import GRDB
import Testing

@testable import Storage

/// Inserts wait to be indexed for search together (`SearchBacklog`), and nothing can tell:
/// searches find them, updates and deletes of them keep the index whole, a store that stopped
/// without closing leaves them durable for the next one, and pruning the log never loses them.
/// Each test ends with FTS5's integrity check, which compares the index with the rows.
@Suite struct SearchBacklogTests {
    /// The rows the search index holds for `text` (a phrase of three or more characters),
    /// read from the file on a connection of its own, past any store.
    static func indexed(_ text: String, in directory: TemporaryDirectory) throws -> Int {
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        defer { try? queue.close() }
        return try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM items_products_search WHERE items_products_search MATCH ?", arguments: ["\"\(text)\""])
                ?? 0
        }
    }

    static func waiting(in directory: TemporaryDirectory) throws -> Int {
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_backlog") ?? 0 }
    }

    static func checkIntegrity(in directory: TemporaryDirectory) throws {
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('integrity-check', 1)")
        }
    }

    static func names(_ store: DemoStore, search: String) throws -> [String] {
        try store.walk(ListQuery(collection: .products, search: search)).compactMap { item -> String? in
            guard case .product(let product) = item.item else { return nil }
            return product.name
        }.sorted()
    }

    @Test func aSearchFindsWaitingInsertsWithoutIndexingThem() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        for index in 0..<5 { _ = try await store.insert(.product(Fixtures.product("Walnut desk \(index)"))) }
        #expect(try Self.waiting(in: directory) == 5, "one backlog entry per commit")
        #expect(try Self.indexed("walnut", in: directory) == 0)
        let all = (0..<5).map { "Walnut desk \($0)" }
        for text in ["walnut", "wa", "w", "desk 3"] {
            let expected = text == "desk 3" ? ["Walnut desk 3"] : all
            #expect(try Self.names(store, search: text) == expected, "\(text)")
        }
        #expect(try Self.waiting(in: directory) == 5, "a search writes nothing")
        try store.store.applySearchBacklog()
        #expect(try Self.indexed("walnut", in: directory) == 5)
        // Short texts are found by the grams of indexed texts: recorded with the backlog too.
        #expect(try Self.names(store, search: "wa") == all)
        try Self.checkIntegrity(in: directory)
    }

    /// Some rows indexed, some waiting: a search in either direction of the title order, a page
    /// at a time, finds each match once, in order.
    @Test(arguments: [false, true])
    func waitingAndIndexedMatchesMergeInTheOrder(descending: Bool) async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var names: [String] = []
        for index in 0..<30 {
            let name = "Hazel \(String(index * 7 % 30 / 2, radix: 3)) shelf"
            names.append(name)
            _ = try await store.insert(.product(Fixtures.product(name)))
            if index == 14 { try store.store.applySearchBacklog() }
        }
        #expect(try Self.waiting(in: directory) == 15)
        for text in ["hazel", "shelf", "ha", "1"] {
            for limit in [1, 4, 50] {
                #expect(
                    try TitleOrderTests.names(store, search: text, descending: descending, limit: limit)
                        == TitleOrderTests.expected(names, text, descending: descending), "\(text), limit \(limit)")
            }
        }
    }

    @Test func updatesAndDeletesOfWaitingInsertsKeepTheIndexWhole() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        var written: [Versioned<StoredItem>] = []
        for index in 0..<6 { written.append(try await store.insert(.product(Fixtures.product("Oak shelf \(index)")))) }
        #expect(try Self.indexed("oak shelf", in: directory) == 0)
        guard case .product(var renamed) = written[0].item else { return }
        renamed.name = "Birch shelf 0"
        _ = try await store.update(.product(renamed), ifVersion: written[0].version)
        try await store.delete(.products, id: written[1].item.id, ifVersion: written[1].version)
        #expect(try Self.waiting(in: directory) == 0, "an update or a delete indexes the backlog first")
        #expect(try Self.indexed("oak shelf", in: directory) == 4)
        try Self.checkIntegrity(in: directory)
        #expect(try Self.names(store, search: "oak") == (2..<6).map { "Oak shelf \($0)" })
        #expect(try Self.names(store, search: "birch") == ["Birch shelf 0"])
    }

    @Test func aStoreThatStoppedWithoutClosingLeavesItsBacklogToTheNextOne() async throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try directory.store()
            for index in 0..<3 { _ = try await store.insert(.product(Fixtures.product("Cedar chest \(index)"))) }
            // Released without `close()`, as a killed process leaves the file.
        }
        #expect(try Self.waiting(in: directory) == 3)
        #expect(try Self.indexed("cedar", in: directory) == 0)
        let reopened = try directory.store()
        #expect(try Self.waiting(in: directory) == 0)
        #expect(try Self.indexed("cedar", in: directory) == 3)
        try Self.checkIntegrity(in: directory)
        _ = try await reopened.insert(.product(Fixtures.product("Cedar chest 3")))
        try reopened.close()
        #expect(try Self.waiting(in: directory) == 0, "closing indexes what waits")
        #expect(try Self.indexed("cedar", in: directory) == 4)
    }

    @Test func pruningTheLogIndexesTheInsertsItWouldForget() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 3)
        for index in 0..<20 { _ = try await store.insert(.product(Fixtures.product("Maple stool \(index)"))) }
        #expect(try store.count(changesIn: .products) <= 5, "the log was pruned")
        #expect(try Self.waiting(in: directory) <= 3)
        #expect(try Self.names(store, search: "maple").count == 20)
        try Self.checkIntegrity(in: directory)
    }

    @Test func theChangeFeedPlacesWaitingInsertsInASearchedList() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        for index in 0..<3 { _ = try await store.insert(.product(Fixtures.product("Pine crate \(index)"))) }
        let list = ListQuery(collection: .products, search: "pine").catalogQuery
        let batch = try store.store.changes("products", after: 0, limit: 10, in: list)
        #expect(batch.changes.count == 3)
        #expect(batch.changes.allSatisfy { $0.placement != nil && $0.placement != .outside })
    }

    @Test(arguments: [0, 4])
    func noMoreThanTheLimitWaits(limit: Int) async throws {
        let directory = try TemporaryDirectory()
        var options = CatalogStore.Options()
        options.searchBacklogLimit = limit
        let store = try directory.store(options: options)
        for index in 0..<10 {
            _ = try await store.insert(.product(Fixtures.product("Teak bench \(index)")))
            let waiting = try Self.waiting(in: directory)
            #expect(store.store.searchBacklogCount.withLock { $0 } == waiting)
            #expect(waiting <= limit)
            #expect(try Self.indexed("teak", in: directory) == index + 1 - waiting)
        }
        try store.store.applySearchBacklog()
        #expect(try Self.indexed("teak", in: directory) == 10)
        try Self.checkIntegrity(in: directory)
    }
}
