import Domain
import GRDB
import Testing

@testable import Storage

/// Searches in an order by the title whose titles repeat in runs: the plan that visits one
/// title per seek and reads only the runs of matching titles (`CatalogStore+TitleGroups.swift`)
/// finds what a row-by-row check finds, in both directions and across pages; a subtitle that
/// can hold the text (one written later, or one the set was refilled with) is never missed.
@Suite struct TitleGroupSearchTests {
    static let names = ["Alpha Lamp", "Bamboo Desk", "Copper Kettle", "Desk Lamp", "Walnut Chair", "Walnut Desk", "Zinc Lamp"]

    static func limits(groups: Int) -> CatalogStore.SearchLimits {
        var limits = CatalogStore.SearchLimits()
        limits.probe = 3
        limits.walk = 4
        limits.groupRows = 2
        limits.groups = groups
        return limits
    }

    /// Six rows of each name, their taglines from a set that holds none of the searched words.
    static func store(in directory: TemporaryDirectory, groups: Int) async throws -> DemoStore {
        var options = CatalogStore.Options()
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
        try await queue.write { db in try db.execute(sql: "DROP TABLE items_products_subtitle_trigrams") }
        try queue.close()
        var options = CatalogStore.Options()
        options.search = Self.limits(groups: 100)
        store = try directory.store(options: options)
        #expect(try store.walk(ListQuery(collection: .products, search: "copper", limit: 4)).map(\.item.id) == expected)
        #expect(try store.walk(ListQuery(collection: .products, search: "co", limit: 4)).map(\.item.id) == expected)
    }

    struct Scan: Sendable, CustomTestStringConvertible {
        var from: String?
        var inclusive = true
        var descending = false
        var cap = 100
        var matches = 100
        var text = "lamp"
        /// The titles answered, then the scan's last one or nil at the end.
        var rows: [String?]
        var testDescription: String { "from \(from ?? "start")\(inclusive ? "" : " (excluded)"), \(descending ? "down" : "up"), \(text)" }
    }

    /// The loose scan visits each distinct title once, in order, from its start, answers those
    /// containing the text, and ends with NULL at the end of the index or the title at its cap.
    @Test(arguments: [
        Scan(from: nil, rows: ["alpha lamp", "desk lamp", "zinc lamp", nil]),
        Scan(from: "desk lamp", rows: ["desk lamp", "zinc lamp", nil]),
        Scan(from: "desk lamp", inclusive: false, rows: ["zinc lamp", nil]),
        Scan(from: "b", rows: ["desk lamp", "zinc lamp", nil]),
        Scan(from: nil, descending: true, rows: ["zinc lamp", "desk lamp", "alpha lamp", nil]),
        Scan(from: "desk lamp", inclusive: false, descending: true, rows: ["alpha lamp", nil]),
        Scan(from: nil, cap: 3, rows: ["alpha lamp", "copper kettle"]),
        Scan(from: nil, matches: 2, rows: ["alpha lamp", "desk lamp"]),
        Scan(from: "walnut", text: "walnut", rows: ["walnut chair", "walnut desk", nil]),
        Scan(from: nil, text: "nothing", rows: [nil]),
    ])
    func aLooseScanAnswersMatchingTitlesThenWhereItStopped(_ scan: Scan) async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.store(in: directory, groups: 100)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        defer { try? queue.close() }
        let table = CatalogTable(StoredCollection.products.definition)
        let sql = CatalogStore.titleRunsSQL(table, column: "k_name", descending: scan.descending, from: scan.from == nil ? nil : scan.inclusive)
        let arguments: [DatabaseValue] =
            (scan.from.map { [$0.databaseValue] } ?? []) + [scan.cap.databaseValue, scan.text.databaseValue, scan.matches.databaseValue]
        let rows = try await queue.read { db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { $0[0] as String? } }
        #expect(rows == scan.rows)
    }
}
