import GRDB

/// How FTS5 merges the search index's segments as writes add them.
///
/// Every commit that indexes rows writes one new segment, and FTS5 then does merge work in
/// proportion: with its default (`automerge` 4: merge once four segments share a level), a
/// group commit of 16 product inserts on 1M products spent 67 µs a row in the search index,
/// most of it merging. At 16 a level, the same inserts cost 25 µs a row. A search then looks a
/// term up in up to 16 segments a level instead of 4, over fewer levels.
/// (https://www.sqlite.org/fts5.html#the_automerge_configuration_option)
enum SearchMerging {
    static let automerge = 16

    /// Sets the index's `automerge` when it is not already that (the value is kept in the file).
    static func ensure(_ table: CatalogTable, _ db: Database) throws {
        guard let search = table.searchTable else { return }
        let configuration = CatalogTable.quote("\(search)_config")
        let current = try Int.fetchOne(db, sql: "SELECT v FROM \(configuration) WHERE k = 'automerge'")
        guard current != automerge else { return }
        let quoted = CatalogTable.quote(search)
        try db.execute(sql: "INSERT INTO \(quoted) (\(quoted), rank) VALUES ('automerge', \(automerge))")
    }
}
