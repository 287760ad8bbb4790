import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// Searches in an order by the title whose titles repeat in runs (ties the search index's
/// order breaks by id): what a row-by-row check finds, in both directions and across pages,
/// subtitles written later included, and following writes.
@Suite struct RepeatedTitleSearchTests {
    static let names = ["Alpha Lamp", "Bamboo Desk", "Copper Kettle", "Desk Lamp", "Walnut Chair", "Walnut Desk", "Zinc Lamp"]

    /// Six rows of each name, their taglines from a set that holds none of the searched words;
    /// `probe` 3, so a page past the first is read a batch at a time.
    static func store(in directory: TemporaryDirectory) async throws -> DemoStore {
        var options = CatalogStore.Options()
        options.search.probe = 3
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

    @Test func runsOfRepeatedTitlesAreFoundInOrderAcrossPages() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory)
        // The last sort orders ties by price, not by id as the search index does.
        for sort in [[SortKey("name")], [SortKey("name", descending: true)], [SortKey("name"), SortKey("price", descending: true)]] {
            for text in Self.texts {
                let expected = try Self.expected(store, text, sort: sort)
                for limit in [1, 4, 50] {
                    let found = try store.walk(ListQuery(collection: .products, sort: sort, search: text, limit: limit)).map(\.item.id)
                    #expect(found == expected, "\(text), sort \(sort), limit \(limit)")
                }
            }
        }
    }

    /// A tagline written later, holding a word only titles held, is found in its place.
    @Test func aSubtitleWrittenLaterIsFound() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory)
        let late = Product(
            id: EntityID.generate(kind: .product), name: "Alpha Lamp", shortDescription: "Copper inlay", longDescription: "",
            price: Money(minorUnits: 1, currency: "EUR"))
        _ = try await store.insert(.product(late))
        let expected = try Self.expected(store, "copper", sort: [SortKey("name")])
        #expect(expected.contains(late.id))
        #expect(try store.walk(ListQuery(collection: .products, search: "copper", limit: 4)).map(\.item.id) == expected)
        #expect(try store.walk(ListQuery(collection: .products, search: "co", limit: 4)).map(\.item.id) == expected)
    }

    /// A title first written after a search is found by the next one, in its place; one whose
    /// row went is not.
    @Test func searchesFollowWrites() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory)
        let before = try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id)
        #expect(before == (try Self.expected(store, "walnut", sort: [SortKey("name")])))
        let stool = Product(
            id: EntityID.generate(kind: .product), name: "Walnut Stool", shortDescription: "Plain", longDescription: "",
            price: Money(minorUnits: 5, currency: "EUR"))
        _ = try await store.insert(.product(stool))
        let after = try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id)
        #expect(after.contains(stool.id))
        #expect(after == (try Self.expected(store, "walnut", sort: [SortKey("name")])))
        try await store.delete(.products, id: stool.id, ifVersion: nil)
        #expect(try store.walk(ListQuery(collection: .products, search: "walnut", limit: 4)).map(\.item.id) == before)
    }
}
