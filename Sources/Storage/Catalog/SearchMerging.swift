import GRDB

/// How FTS5 merges the search index's segments as writes add them.
///
/// Every commit that indexes rows writes one new segment, and FTS5 then does merge work in
/// proportion. Its defaults (`automerge` 4, `crisismerge` 16) make small commits costly and
/// some of them very slow; a higher `automerge` alone makes every merge a whole-level one, and
/// a higher `crisismerge` with it merges in steps. A search looks a term up in more segments a
/// level, over fewer levels. (https://www.sqlite.org/fts5.html#the_automerge_configuration_option)
enum SearchMerging {
    static let settings = [("automerge", 16), ("crisismerge", 64)]

    /// Sets each of `settings` on the index that does not have it already (kept in the file).
    static func ensure(_ table: CatalogTable, _ db: Database) throws {
        guard let search = table.searchTable else { return }
        let configuration = CatalogTable.quote("\(search)_config")
        let quoted = CatalogTable.quote(search)
        for (name, value) in settings {
            let current = try Int.fetchOne(db, sql: "SELECT v FROM \(configuration) WHERE k = ?", arguments: [name])
            guard current != value else { continue }
            try db.execute(sql: "INSERT INTO \(quoted) (\(quoted), rank) VALUES (?, ?)", arguments: [name, value])
        }
    }
}
