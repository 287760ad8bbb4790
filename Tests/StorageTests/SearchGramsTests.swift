import Domain
import GRDB
import Testing

@testable import Storage

/// Searches of one or two characters go through `<table>_grams`, which the writer keeps.
@Suite struct SearchGramsTests {
    struct TrigramsCase: Sendable, CustomTestStringConvertible {
        var text: String
        var trigrams: Set<String> = []
        var short: Set<String> = []
        var testDescription: String { text }
    }

    static let trigramsCases: [TrigramsCase] = [
        TrigramsCase(text: ""),
        TrigramsCase(text: "é", short: ["é"]),
        TrigramsCase(text: "tv", short: ["tv"]),
        TrigramsCase(text: "abcd", trigrams: ["abc", "bcd"]),
        TrigramsCase(text: "aaaa", trigrams: ["aaa"]),
        TrigramsCase(text: "🦊 x", trigrams: ["🦊 x"]),
    ]

    /// Columns of three or more characters give their trigrams (SQL cuts those into grams);
    /// shorter ones are kept whole.
    @Test(arguments: trigramsCases)
    func textsGiveTheirTrigramsOrThemselvesWhenShort(_ test: TrigramsCase) {
        var trigrams = Set<String>()
        var short = Set<String>()
        SearchGrams.trigrams(of: test.text, into: &trigrams, short: &short)
        #expect(trigrams == test.trigrams)
        #expect(short == test.short)
    }

    static let shortQueries = ["t", "tv", "v", "ω", "ss", "ß", "🦊", "zx", "z", "q", "o", "ra", "é"]

    /// Every store option that changes the plan of a short query.
    static let options: [SQLiteStore.Options] = [.init(), .walkingSearch, .membershipSearch, .commonShortTextSearch]

    @Test(arguments: options.indices)
    func shortQueriesFollowCreatesPatchesAndDeletes(_ option: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(options: Self.options[option])
        // Short titles have no trigrams; "Ω" and the fox occur nowhere else.
        var tv = Fixtures.product("TV")
        let omega = Fixtures.product("Ω")
        for product in [tv, omega, Fixtures.product("Straße Lamp"), Fixtures.product("Zebra Rug")] {
            _ = try await store.insert(.product(product))
        }
        try store.expectSearchesMatchTheRows(Self.shortQueries)

        tv.name = "Radio 🦊"
        _ = try await store.update(.product(tv), ifVersion: nil)
        try store.expectSearchesMatchTheRows(Self.shortQueries)

        try await store.delete(.products, id: omega.id, ifVersion: nil)
        _ = try await store.insert(.product(Fixtures.product("ZX")))
        try store.expectSearchesMatchTheRows(Self.shortQueries)
        #expect(try store.page(ListQuery(collection: .products, search: "zx")).items.count == 1)
        #expect(try store.page(ListQuery(collection: .products, search: "ω")).items.isEmpty)
    }

    @Test func aShortDepartmentNameIsFound() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        _ = try await store.insert(.department(Fixtures.department("HR")))
        _ = try await store.insert(.department(Fixtures.department("Research")))
        #expect(try store.page(ListQuery(collection: .departments, search: "h")).items.count == 2)
        #expect(try store.page(ListQuery(collection: .departments, search: "hr")).items.count == 1)
    }

    @Test func theWriterKeepsEveryGramOfTheIndex() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(seed: true)
        for (index, product) in standardDataset.products.prefix(40).enumerated() {
            var renamed = product
            renamed.name = index.isMultiple(of: 2) ? "Ürün \(index) ✓" : "Q\(index)"
            _ = try await store.update(.product(renamed), ifVersion: nil)
        }
        _ = try await store.insert(.department(Fixtures.department("Ωμέγα")))
        // Deriving the grams again from each index adds nothing the writer did not add.
        let before = try store.gramCount()
        try await store.rebuildGrams()
        #expect(try store.gramCount() == before)
    }

    @Test func bulkLoadedShortTextsAreSearchable() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        try store.bulkLoad { loader in
            for name in ["Ω", "TV", "Ωmega Lamp", "Lamp"] { try loader.insert(.product(Fixtures.product(name))) }
        }
        try store.expectSearchesMatchTheRows(["ω", "tv", "la", "ωm", "x"])
    }
}

extension SQLiteStore {
    /// Every query finds exactly the products whose folded title or subtitle contains it.
    func expectSearchesMatchTheRows(_ queries: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let products = try walk(ListQuery(collection: .products, limit: 200)).map(\.item)
        for query in queries {
            let folded = searchFolded(query)
            let expected = products.filter { item in
                guard let keys = SearchKeys.of(item) else { return false }
                return keys.title.contains(folded) || (keys.subtitle?.contains(folded) ?? false)
            }.map(\.id)
            for sort in [[SortKey("name")], [SortKey("price", descending: true)]] {
                let found = try walk(ListQuery(collection: .products, sort: sort, search: query, limit: 1)).map(\.item.id)
                #expect(Set(found) == Set(expected), "q=\(query)", sourceLocation: sourceLocation)
                #expect(found.count == expected.count, "q=\(query) returned a row twice", sourceLocation: sourceLocation)
            }
        }
    }

    /// Rows in every grams table.
    func gramCount() throws -> Int {
        try pool.read { db in
            try StoreSchema.searchableTables.reduce(0) { sum, table in
                sum + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)_grams") ?? 0)
            }
        }
    }

    /// Derives every grams table from its index again, as the migration did.
    func rebuildGrams() async throws {
        try await pool.write { db in
            for table in StoreSchema.searchableTables { try SearchGrams.rebuild(db, table: table) }
        }
    }
}
