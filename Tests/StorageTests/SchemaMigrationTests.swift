import Domain
import GRDB
import Testing

@testable import Storage

/// The schema's later versions, applied to databases that earlier versions created.
@Suite struct SchemaMigrationTests {
    /// The last migration before the title indexes gained the subtitle.
    static let version3 = "v3: grams for searches under three characters"

    @Test func titleIndexesEndWithTheSubtitle() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        try expectTitleIndexesHoldTheSubtitle(store)
    }

    @Test func aVersion3DatabaseMigratesAndFindsItsRowsBySubtitle() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v3.sqlite")
        let ids = (1...3).map { EntityID(kind: .product, timestampMilliseconds: UInt64($0), randomBits: 7).rawValue }
        do {
            let queue = try DatabaseQueue(path: path)
            try StoreSchema.migrator().migrate(queue, upTo: Self.version3)
            try queue.write { db in
                for (pk, name, subtitle) in [(1, "Kettle", "quiet boil"), (2, "Lamp", "bright"), (3, "Quiet Fan", "cool")] {
                    try db.execute(
                        sql: """
                            INSERT INTO products (pk, id, version, name, short_description, long_description, price_minor,
                                currency, title_key, subtitle_key)
                            VALUES (?, ?, 1, ?, ?, '', 100, 'EUR', ?, ?)
                            """,
                        arguments: [pk, ids[pk - 1], name, subtitle, searchFolded(name), subtitle])
                    try db.execute(
                        sql: "INSERT INTO products_search (rowid, title_key, subtitle_key) VALUES (?, ?, ?)",
                        arguments: [pk, searchFolded(name), subtitle])
                }
            }
        }
        let store = try SQLiteStore(path: path, options: .walkingSearch)
        try expectTitleIndexesHoldTheSubtitle(store)
        for sort in [[SortKey("name")], [SortKey("name", descending: true)], [SortKey("price")]] {
            let found = try store.walk(ListQuery(collection: .products, sort: sort, search: "quiet", limit: 1)).map(\.item.id.rawValue)
            let expected = sort[0].descending ? [ids[2], ids[0]] : [ids[0], ids[2]]
            #expect(sort[0].field == "price" ? Set(found) == Set(expected) : found == expected, "sort \(sort)")
        }
    }

    func expectTitleIndexesHoldTheSubtitle(_ store: SQLiteStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try store.pool.read { db in
            for (_, name) in StoreSchema.titleIndexes {
                for index in [name, name + "_desc"] {
                    let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [index])
                    #expect(columns == ["title_key", "id", "subtitle_key"], "\(index)", sourceLocation: sourceLocation)
                }
            }
        }
    }
}
