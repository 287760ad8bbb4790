import GRDB
import Testing

@testable import Storage

/// Every searchable collection's FTS5 index merges at 16 segments a level (`SearchMerging`),
/// in a new file and in one made before the setting.
@Suite struct SearchMergingTests {
    private static func automerge(_ path: String) throws -> [String: Int] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var found: [String: Int] = [:]
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'items\\_%\\_search' ESCAPE '\\'")
            for table in tables {
                found[table] = try Int.fetchOne(db, sql: "SELECT v FROM \(CatalogTable.quote("\(table)_config")) WHERE k = 'automerge'")
            }
            return found
        }
    }

    @Test func aNewFileMergesAtSixteenSegmentsALevel() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.store()
        let settings = try Self.automerge(directory.path("test.sqlite"))
        #expect(settings.count == StoredCollection.allCases.filter { CatalogTable($0.definition).searchTable != nil }.count)
        #expect(settings.values.allSatisfy { $0 == SearchMerging.automerge })
    }

    @Test func aFileWithFTS5sDefaultGetsTheSettingWhenOpened() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        try directory.store().close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('automerge', 4)")
        }
        try queue.close()
        #expect(try Self.automerge(path)["items_products_search"] == 4)
        _ = try directory.store()
        #expect(try Self.automerge(path)["items_products_search"] == SearchMerging.automerge)
    }
}
