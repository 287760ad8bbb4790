import GRDB

/// What a bulk load does once at its end rather than row by row: search indexing and the
/// change-log entries.
///
/// Search: SQLite 3.40's FTS5 flushes its pending terms to a new segment at every statement
/// savepoint (see `SearchIndexChanges`); a load indexed row by row writes one tiny segment per
/// row and spends its time merging them (2.5× slower overall). The load indexes its new rows
/// with one statement per table instead, and adds their grams (`SearchGrams`) from the index's
/// vocabulary.
///
/// Change log: every loaded item already carries its sequence as its version; the entries are
/// made from the rows in one statement per table, skipping those the retention would prune at
/// once (a million-row load would otherwise write a million entries and delete 900,000).
///
/// The rows of the load are told apart by primary key: `pk` is an `INTEGER PRIMARY KEY`, so new
/// rows get keys above the largest one when the load began.
struct DeferredBulkWork {
    private let db: Database
    private let startKeys: [(table: CollectionTable, key: Int64)]

    init(_ db: Database) throws {
        self.db = db
        var keys: [(CollectionTable, Int64)] = []
        for collection in StoredCollection.allCases {
            let table = CollectionTable.of(collection)
            keys.append((table, try Int64.fetchOne(db, sql: "SELECT coalesce(max(pk), 0) FROM \(table.name)") ?? 0))
        }
        startKeys = keys
    }

    /// Indexes and logs the loaded rows; `latest` is the last sequence the load handed out.
    func finish(latest: Int64, retention: Int, at time: Int64) throws {
        let cutoff = latest - Int64(retention)
        for (table, key) in startKeys {
            if let fts = table.searchTable {
                try db.execute(
                    sql: "INSERT INTO \(fts) (rowid, title_key, subtitle_key) SELECT pk, title_key, subtitle_key FROM \(table.name) WHERE pk > ?",
                    arguments: [key])
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table.name) WHERE pk > ?)", arguments: [key]) == true {
                    try SearchGrams.rebuild(db, table: table.name)
                }
            }
            // Explicit sequences: AUTOINCREMENT then moves the log's counter up to the largest.
            try db.execute(
                sql: """
                    INSERT INTO changes (seq, collection, item_id, op, committed_at)
                    SELECT version, ?, id, 'insert', ? FROM \(table.name) WHERE pk > ? AND version > ? ORDER BY version
                    """,
                arguments: [table.collection.rawValue, time, key, cutoff])
        }
    }
}
