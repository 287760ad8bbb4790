import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// `q=`: case- and diacritic-insensitive substring search over the title and subtitle rows show.
@Suite struct SearchTests {
    /// The seeded store of the demo definition.
    static let stores: [DemoStore] = {
        do {
            return [try SharedStores.seeded(), try SharedStores.seededWithTinySearchLimits()]
        } catch {
            preconditionFailure("cannot open the store: \(error)")
        }
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var collection: StoredCollection
        var query: String
        var sort: [SortKey]? = nil
        var testDescription: String { "\(collection.rawValue) q=\(query)" }
    }

    static let cases: [Case] = [
        Case(collection: .people, query: "jose"),
        Case(collection: .people, query: "JOSÉ"),
        Case(collection: .people, query: "søren"),
        Case(collection: .people, query: "muller", sort: [SortKey("givenName", descending: true)]),
        Case(collection: .people, query: "555-4"),
        Case(collection: .products, query: "MECH"),
        Case(collection: .products, query: "keyboard", sort: [SortKey("price", descending: true)]),
        Case(collection: .products, query: "wireless head"),
        Case(collection: .products, query: "ke"),
        Case(collection: .products, query: "K"),
        Case(collection: .products, query: "  usb-c  "),
        Case(collection: .articles, query: "swift"),
        Case(collection: .articles, query: "東京"),
        Case(collection: .documents, query: "notes 1"),
        Case(collection: .documents, query: "creme"),
        Case(collection: .tracks, query: "surround"),
        Case(collection: .departments, query: "ENG"),
        Case(collection: .products, query: "nothing matches this"),
        Case(collection: .products, query: "\"quoted\" AND *"),
        Case(collection: .products, query: "smart", sort: [SortKey("name", descending: true)]),
        Case(collection: .products, query: "walnut", sort: [SortKey("price", descending: true)]),
        Case(collection: .products, query: "bamboo ke"),
        Case(collection: .products, query: "e", sort: [SortKey("price")]),
        Case(collection: .products, query: "ß"),
        Case(collection: .products, query: "q"),
        Case(collection: .products, query: "zx"),
        Case(collection: .products, query: "🦊"),
        Case(collection: .products, query: "qqqq"),
        Case(collection: .people, query: "a"),
        Case(collection: .departments, query: "hr"),
        Case(collection: .articles, query: "京"),
    ]

    @Test(arguments: cases)
    func searchFindsExactlyTheRowsWhoseTextContainsTheQuery(_ test: Case) throws {
        let folded = searchFolded(test.query.trimmingCharacters(in: .whitespaces))
        let matching = standardDataset.items(test.collection).filter { item in
            guard let keys = SearchKeys.of(item) else { return false }
            return keys.title.contains(folded) || (keys.subtitle?.contains(folded) ?? false)
        }
        let sort = test.sort ?? test.collection.defaultSort
        let expected = ExpectedOrder.sorted(matching, by: sort)
        for store in Self.stores {
            let found = try store.walk(ListQuery(collection: test.collection, sort: sort, search: test.query, limit: 4)).map(\.item.id)
            #expect(found == expected)
        }
    }

    @Test func accentsAndCaseAreIgnoredBothWays() throws {
        let store = try #require(Self.stores.first)
        let jose = try store.walk(ListQuery(collection: .people, search: "jose"))
        #expect(!jose.isEmpty)
        for case .person(let person) in jose.map(\.item) {
            #expect(person.fullName.contains("José") || searchFolded(person.fullName).contains("jose"))
        }
        let mechanical = try store.page(ListQuery(collection: .products, search: "MECH", limit: 200))
        #expect(mechanical.items.contains { $0.item == .product(standardDataset.products[0]) })
    }

    @Test func textOnlyInTheDetailIsNotFound() throws {
        let store = try #require(Self.stores.first)
        // Every product's long description starts "The <adjective> …"; rows show name and tagline only.
        let page = try store.page(ListQuery(collection: .products, search: "tactile switches"))
        #expect(page.items.isEmpty)
    }

    @Test func blankQueryMeansNoSearch() throws {
        let store = try #require(Self.stores.first)
        let page = try store.page(ListQuery(collection: .departments, search: "   ", limit: 200))
        #expect(page.items.count == standardDataset.departments.count)
    }

    /// Titles that start with the text interleave with the other matches in the sort's order,
    /// in both directions and across pages: with the default limits (matches read by key) and
    /// with tiny ones (the range of titles starting with "sma" merged with the other matches,
    /// from positions before, inside and after that range).
    @Test(arguments: [CatalogStore.SearchLimits(), SharedStores.tinySearchLimits])
    func titlesStartingWithTheTextInterleaveWithOtherMatches(limits: CatalogStore.SearchLimits) async throws {
        let directory = try TemporaryDirectory()
        var options = CatalogStore.Options()
        options.search = limits
        let store = try directory.store(options: options)
        let names =
            [
                ("Smart Lamp", "Warm light"), ("Smallest Lamp", "Warm light"), ("Small Smart Lamp", "Warm light"),
                ("Lamp", "Smart and warm"), ("Art Smart", "Cold"), ("Smarter Desk", "Oak"), ("Smart Lamp", "Again"), ("Zebra", "Smarts"),
            ] + (1...10).map { ("Aardvark \($0)", "Plain") }
        for (index, (name, tagline)) in names.enumerated() {
            let product = Product(
                id: EntityID.generate(kind: .product), name: name, shortDescription: tagline, longDescription: "",
                price: Money(minorUnits: Int64(index * 37 % 11), currency: "EUR"))
            _ = try await store.insert(.product(product))
        }
        let all = try store.walk(ListQuery(collection: .products, limit: 200)).map(\.item)
        let matching = all.filter { item in
            guard let keys = SearchKeys.of(item) else { return false }
            return keys.title.contains("smart") || (keys.subtitle?.contains("smart") ?? false)
        }
        for sort in [[SortKey("name")], [SortKey("name", descending: true)], [SortKey("price", descending: true), SortKey("name")]] {
            for limit in [1, 2, 50] {
                let found = try store.walk(ListQuery(collection: .products, sort: sort, search: "SMART", limit: limit)).map(\.item.id)
                #expect(found == ExpectedOrder.sorted(matching, by: sort), "sort \(sort), limit \(limit)")
            }
        }
    }

    @Test func searchFollowsWrites() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let department = Department(id: EntityID.generate(kind: .department), name: "Zoë's Workshop")
        _ = try await store.insert(.department(department))
        #expect(try store.page(ListQuery(collection: .departments, search: "zoe")).items.count == 1)
        _ = try await store.update(.department(Department(id: department.id, name: "Garage")), ifVersion: nil)
        #expect(try store.page(ListQuery(collection: .departments, search: "zoe")).items.isEmpty)
        #expect(try store.page(ListQuery(collection: .departments, search: "GARAGE")).items.count == 1)
        try await store.delete(.departments, id: department.id, ifVersion: nil)
        #expect(try store.page(ListQuery(collection: .departments, search: "garage")).items.isEmpty)
    }

    /// Short texts find rows through the trigrams that contain them (`SearchGrams`): a write
    /// that brings new trigrams adds their grams, names of one or two characters are found
    /// through the short-row index, and a database without the map gets it filled on open.
    @Test func shortTextsFindWrittenRowsAndAMissingGramMapIsRefilled() async throws {
        let directory = try TemporaryDirectory()
        var store = try directory.store()
        let workshop = Department(id: EntityID.generate(kind: .department), name: "Qxw Workshop")
        let tiny = Department(id: EntityID.generate(kind: .department), name: "Jv")
        _ = try await store.insert(.department(workshop))
        _ = try await store.insert(.department(tiny))
        func found(_ text: String) throws -> [EntityID] {
            try store.walk(ListQuery(collection: .departments, search: text, limit: 2)).map(\.item.id)
        }
        #expect(try found("qx") == [workshop.id])
        #expect(try found("XW") == [workshop.id])
        #expect(try found("jv") == [tiny.id])
        #expect(try found("v").contains(tiny.id))
        #expect(try found("wj").isEmpty)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        try await queue.write { db in try db.execute(sql: "DROP TABLE items_departments_grams") }
        try queue.close()
        store = try directory.store()
        #expect(try found("qx") == [workshop.id])
        #expect(try found("jv") == [tiny.id])
    }

    struct Substring: Sendable, CustomTestStringConvertible {
        var haystack: String?
        var needle: String
        var expected: Bool
        var testDescription: String { "\(haystack ?? "nil") ∋ \(needle)" }
    }

    /// A walk's check is `instr`'s: bytes of the folded keys, anywhere, no key no match.
    @Test(arguments: [
        Substring(haystack: "mechanical keyboard", needle: "keyboard", expected: true),
        Substring(haystack: "mechanical keyboard", needle: "mech", expected: true),
        Substring(haystack: "mechanical keyboard", needle: "d", expected: true),
        Substring(haystack: "keyboar", needle: "keyboard", expected: false),
        Substring(haystack: "kkkeyboard", needle: "kkey", expected: true),
        Substring(haystack: "aab", needle: "ab", expected: true),
        Substring(haystack: "東京タワー", needle: "京タ", expected: true),
        Substring(haystack: "東京タワー", needle: "タ東", expected: false),
        Substring(haystack: "", needle: "a", expected: false),
        Substring(haystack: nil, needle: "a", expected: false),
    ])
    func aWalkFindsTheTextAsBytesAnywhereInAKey(_ example: Substring) {
        var needle = example.needle
        let found = needle.withUTF8 { needle in
            guard var haystack = example.haystack else { return SearchWalk.contains(nil, needle) }
            return haystack.withUTF8 { SearchWalk.contains($0, needle) }
        }
        #expect(found == example.expected)
    }
}
