import GRDB
import Testing

@testable import Storage

/// Every searchable collection's FTS5 index merges as `SearchMerging` says, in a new file and in
/// one made before the settings.
@Suite struct SearchMergingTests {
    /// Each search table's merge settings, by table.
    private static func settings(_ path: String) throws -> [String: [String: Int]] {
        let queue = try DatabaseQueue(path: path)
        return try queue.read { db in
            var found: [String: [String: Int]] = [:]
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'items\\_%\\_search' ESCAPE '\\'")
            for table in tables {
                for (name, _) in SearchMerging.settings {
                    found[table, default: [:]][name] = try Int.fetchOne(
                        db, sql: "SELECT v FROM \(CatalogTable.quote("\(table)_config")) WHERE k = ?", arguments: [name])
                }
            }
            return found
        }
    }

    private static let expected = Dictionary(uniqueKeysWithValues: SearchMerging.settings.map { ($0.0, $0.1) })

    @Test func aNewFileMergesAsSet() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.store()
        let settings = try Self.settings(directory.path("test.sqlite"))
        #expect(settings.count == StoredCollection.allCases.filter { CatalogTable($0.definition).searchTable != nil }.count)
        #expect(settings.values.allSatisfy { $0 == Self.expected })
        #expect(Self.expected == ["automerge": 16, "crisismerge": 64])
    }

    @Test func aFileWithFTS5sDefaultsGetsTheSettingsWhenOpened() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        try directory.store().close()
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM items_products_search_config WHERE k = 'crisismerge'")
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('automerge', 4)")
        }
        try queue.close()
        #expect(try Self.settings(path)["items_products_search"] == ["automerge": 4])
        _ = try directory.store()
        #expect(try Self.settings(path)["items_products_search"] == Self.expected)
    }
}
