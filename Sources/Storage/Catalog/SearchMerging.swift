import GRDB

/// How FTS5 merges the search index's segments as writes add them.
///
/// Every commit that indexes rows writes one new segment, and FTS5 then does merge work in
/// proportion. With its defaults (`automerge` 4: merge once four segments share a level;
/// `crisismerge` 16: merge a level whole, at once, when it reaches 16), 4,000 commits of 16
/// titles into a search index of a million rows (the bench's dataset) cost 60 µs a row in the search index, with commits
/// of up to 736 ms (a Python loop over a copy of the dataset, same SQLite). `automerge` 16 alone
/// made every merge a whole-level one (918 ms at worst); with `crisismerge` 64 as well, 23 µs a
/// row and 60 ms at worst, merging in steps. A search looks a term up in more segments a level,
/// over fewer levels. (https://www.sqlite.org/fts5.html#the_automerge_configuration_option)
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
