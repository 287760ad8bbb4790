import Domain
import GRDB
import Testing

@testable import Storage

/// Searches in an order by the title whose titles repeat in runs: the plan that finds the
/// matching titles in the collection's distinct ones and reads only their runs (`CatalogStore+TitleGroups.swift`)
/// finds what a row-by-row check finds, in both directions and across pages; a subtitle that
/// can hold the text (one written later, or one the set was refilled with) is never missed.
@Suite struct TitleGroupSearchTests {
    static let names = ["Alpha Lamp", "Bamboo Desk", "Copper Kettle", "Desk Lamp", "Walnut Chair", "Walnut Desk", "Zinc Lamp"]

    static func limits(groups: Int) -> CatalogStore.SearchLimits {
        var limits = CatalogStore.SearchLimits()
        limits.probe = 3
        limits.titleWalk = 4
        limits.groupRows = 2
        limits.groups = groups
        return limits
    }

    /// Six rows of each name, their taglines from a set that holds none of the searched words.
    static func store(in directory: TemporaryDirectory, groups: Int, retention: Int = 100_000) async throws -> DemoStore {
        var options = CatalogStore.Options(changeRetention: retention)
        options.search = limits(groups: groups)
        let store = try directory.store(options: options)
        for copy in 0..<6 {
            for (index, name) in names.enumerated() {
                let product = Product(
                    id: EntityID.generate(kind: .product), name: name, shortDescription: ["Plain", "Oak finish", "Matte"][(copy + index) % 3],
                    longDescription: "", price: Money(minorUnits: Int64(copy * 7 + index), currency: "EUR"))
                _ = try await store.insert(.product(product))
            }
        }
        return store
    }

    static func expected(_ store: DemoStore, _ text: String, sort: [SortKey]) throws -> [EntityID] {
        let all = try store.walk(ListQuery(collection: .products, limit: 200)).map(\.item)
        let matching = all.filter { item in
            guard let keys = SearchKeys.of(item) else { return false }
            return keys.title.contains(text) || (keys.subtitle?.contains(text) ?? false)
        }
        return ExpectedOrder.sorted(matching, by: sort)
    }

    static let texts = ["lamp", "desk", "walnut", "zinc", "copper", "la", "k", "walnut c", "nothing", "oak"]

    @Test(arguments: [100, 2])
    func runsOfRepeatedTitlesAreFoundInOrderAcrossPages(groups: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory, groups: groups)
        for sort in [[SortKey("name")], [SortKey("name", descending: true)]] {
            for text in Self.texts {
                let expected = try Self.expected(store, text, sort: sort)
                for limit in [1, 4, 50] {
                    let found = try store.walk(ListQuery(collection: .products, sort: sort, search: text, limit: limit)).map(\.item.id)
                    #expect(found == expected, "\(text), sort \(sort), limit \(limit)")
                }
            }
        }
    }

    /// A tagline written after the set was filled, holding a word only titles held: the write
    /// records its trigrams, so the search reads subtitles too. The set dropped and made again
    /// on open is filled from the search index, the new tagline included.
    @Test func aSubtitleWrittenLaterOrRefilledIsFound() async throws {
        let directory = try TemporaryDirectory()
        var store = try await Self.store(in: directory, groups: 100)
        let late = Product(
            id: EntityID.generate(kind: .product), name: "Alpha Lamp", shortDescription: "Copper inlay", longDescription: "",
            price: Money(minorUnits: 1, currency: "EUR"))
        _ = try await store.insert(.product(late))
        let expected = try Self.expected(store, "copper", sort: [SortKey("name")])
        #expect(expected.contains(late.id))
        #expect(try store.walk(ListQuery(collection: .products, search: "copper", limit: 4)).map(\.item.id) == expected)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        try await queue.write { db in try db.execute(sql: "DROP TABLE items_products_subtitle_grams") }
        try queue.close()
        var options = CatalogStore.Options()
        options.search = Self.limits(groups: 100)
        store = try directory.store(options: options)
        #expect(try store.walk(ListQuery(collection: .products, search: "copper", limit: 4)).map(\.item.id) == expected)
        #expect(try store.walk(ListQuery(collection: .products, search: "co", limit: 4)).map(\.item.id) == expected)
    }

    /// The kept titles follow writes: a title first written after a search is found by the
    /// next one (added from the change log, or read again when the log was pruned past the
    /// list), and one whose last row went reads nothing.
    @Test(arguments: [100_000, 1])
    func theTitlesFollowWrites(retention: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory, groups: 100, retention: retention)
        let before = try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id)
        #expect(before == (try Self.expected(store, "walnut", sort: [SortKey("name")])))
        let stool = Product(
            id: EntityID.generate(kind: .product), name: "Walnut Stool", shortDescription: "Plain", longDescription: "",
            price: Money(minorUnits: 5, currency: "EUR"))
        _ = try await store.insert(.product(stool))
        // A later write: with a retention of 1, the log no longer holds the stool's insert.
        let lamp = Product(
            id: EntityID.generate(kind: .product), name: "Zinc Lamp", shortDescription: "Matte", longDescription: "",
            price: Money(minorUnits: 6, currency: "EUR"))
        _ = try await store.insert(.product(lamp))
        let after = try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id)
        #expect(after.contains(stool.id))
        #expect(after == (try Self.expected(store, "walnut", sort: [SortKey("name")])))
        try await store.delete(.products, id: stool.id, ifVersion: nil)
        #expect(try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id) == before)
    }

    /// Whether a subtitle may hold a text, from the grams of the taglines "Plain", "Oak
    /// finish" and "Matte": every four-character gram of a longer text, the text itself when
    /// it has three, a trigram that contains a shorter one.
    @Test(arguments: [
        ("plain", true), ("lain", true), ("oak fin", true), ("plan", false), ("lainx", false),
        ("oak", true), ("oat", false), ("ma", true), ("h", true), ("zq", false), ("matt", true), ("shmatte", false),
    ])
    func aSubtitleMayHoldATextOnlyWhenItsGramsOccur(text: String, may: Bool) async throws {
        #expect(try await Self.reading { db, table in try SubtitleGrams.mayContain(text, table: table, db) } == may)
    }

    /// `body` on the products of a closed store of `store(in:groups:)`'s rows.
    static func reading<T: Sendable>(_ body: @escaping @Sendable (Database, CatalogTable) throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory, groups: 100)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        defer { try? queue.close() }
        let table = CatalogTable(StoredCollection.products.definition)
        return try await queue.read { db in try body(db, table) }
    }

    /// The distinct titles in the index's order, read one seek each; nil past the limit.
    @Test func theTitleListHoldsEachDistinctTitleOnceInOrder() async throws {
        let sorted = Self.names.map { $0.lowercased() }.sorted { CatalogPageQuery.precedes($0, $1) }
        let lists = try await Self.reading { db, table in
            try [7, 8, 100, 6].map { limit in try TitleList.read(table, column: "k_name", limit: limit, db) }
        }
        #expect(lists == [TitleList(titles: sorted), TitleList(titles: sorted), TitleList(titles: sorted), nil])
    }

    /// Titles added to a list take their place in the order (bytes), once each.
    @Test(
        arguments: [
            (["b", "d"], ["c"], ["b", "c", "d"]),
            (["b", "d"], ["a", "e", "d", "b"], ["a", "b", "d", "e"]),
            ([], ["b", "a", "b"], ["a", "b"]),
            (["e\u{301}"], ["\u{E9}", "e\u{301}"], ["e\u{301}", "\u{E9}"]),
        ] as [([String], [String], [String])])
    func addedTitlesTakeTheirPlaceOnce(titles: [String], added: [String], expected: [String]) {
        var list = TitleList(titles: titles)
        list.add(added)
        #expect(list.titles.map { Array($0.utf8) } == expected.map { Array($0.utf8) })
    }

    /// Many titles at once are merged by one sort, with the same result as one by one.
    @Test func manyAddedTitlesMakeTheSameListAsFew() {
        let existing = (0..<300).map { "title \($0 * 3)" }.sorted { CatalogPageQuery.precedes($0, $1) }
        let added = (0..<200).map { "title \($0 * 2)" } + ["e\u{301}", "\u{E9}", "title 0"]
        var many = TitleList(titles: existing)
        many.add(added)
        var few = TitleList(titles: existing)
        for title in added { few.add([title]) }
        #expect(many.titles.map { Array($0.utf8) } == few.titles.map { Array($0.utf8) })
        #expect(many.titles.count == Set((existing + added).map { Array($0.utf8) }).count)
        #expect(many.mayContain(at: many.titles.count - 1, pairs: TitleList.pairs(many.titles[many.titles.count - 1])))
    }

    /// A text's byte pairs are among those of every text that contains it; a title without
    /// them is passed over.
    @Test(arguments: [
        ("walnut chair", "walnut", true), ("walnut chair", "t c", true), ("walnut chair", "r", true), ("walnut chair", "", true),
        ("東京タワー", "京タ", true), ("bench 12345", "walnut", false), ("bench 12345", "bottle", false), ("abc", "abcd", false),
    ])
    func aTitleLackingATextsBytePairsCannotContainIt(title: String, text: String, may: Bool) {
        let list = TitleList(titles: [title])
        #expect(list.mayContain(at: 0, pairs: TitleList.pairs(text)) == may)
        if title.contains(text) || text.isEmpty { #expect(may) }
    }

    struct Start: Sendable, CustomTestStringConvertible {
        var position: String?
        var descending = false
        var indices: [Int]
        var testDescription: String { "from \(position ?? "start") \(descending ? "down" : "up")" }
    }

    /// Where a page's runs start: at the position's title, or the next one in the order's direction.
    @Test(arguments: [
        Start(position: nil, indices: [0, 1, 2, 3]),
        Start(position: nil, descending: true, indices: [3, 2, 1, 0]),
        Start(position: "b", indices: [1, 2, 3]),
        Start(position: "b", descending: true, indices: [1, 0]),
        Start(position: "bb", indices: [2, 3]),
        Start(position: "bb", descending: true, indices: [1, 0]),
        Start(position: "", indices: [0, 1, 2, 3]),
        Start(position: "", descending: true, indices: []),
        Start(position: "zz", indices: [3]),
        Start(position: "zz", descending: true, indices: [2, 1, 0]),
        Start(position: "a", descending: true, indices: [0]),
        // Bytes, not Swift's String equality: "é" precomposed and decomposed are two titles.
        Start(position: "e\u{301}", indices: [3]),
        Start(position: "e\u{301}", descending: true, indices: [2, 1, 0]),
    ])
    func runsStartAtThePositionsTitle(_ start: Start) {
        let list = TitleList(titles: ["a", "b", "c", "\u{E9}"])
        #expect(list.indices(from: start.position, descending: start.descending) == start.indices)
    }
}
