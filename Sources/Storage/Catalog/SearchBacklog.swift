import GRDB

/// Inserts whose search entries wait, so that FTS5 indexes them in batches.
///
/// FTS5 writes a new index segment and does merge work at every commit that indexes rows, so a
/// row costs several times more to index in small commits than in large ones. So a
/// commit whose writes are all inserts does not index them: it records the range of its
/// change-log entries here, in its own transaction, and a later commit indexes every insert
/// the backlog names, reading the rows as they are then.
///
/// They are as they were inserted, because whatever could change or remove a row's search
/// entry indexes the backlog first, in the same transaction, before it writes:
/// - a commit with an update or a delete (`CatalogWrite.removesSearchEntries`);
/// - a commit once `Options.searchBacklogLimit` inserts wait;
/// - opening and closing the store (a process that stopped without closing left its backlog
///   here: durable, any process's writer indexes it), a rebuild of the derived columns and a
///   bulk load;
/// - pruning the change log, which never removes an entry the backlog names (`firstWaiting`).
///
/// A search reads the waiting rows themselves, in its own snapshot (`matchesSQL`), and adds
/// those that contain its text to the index's matches: it finds every write acknowledged before
/// it without waiting for a commit.
enum SearchBacklog {
    static let createSQL = "CREATE TABLE IF NOT EXISTS search_backlog (first INTEGER PRIMARY KEY, last INTEGER NOT NULL)"

    /// The rows of `table` that wait for the index and whose folded title or subtitle contains a
    /// text: `pk`, the title's order key (`titleColumn`) and `id`. Binds the collection's name,
    /// then the text twice.
    ///
    /// The waiting rows are the table's last: SQLite gives a new row the largest `pk` plus one,
    /// and no row is deleted while inserts wait (a delete indexes them first), so every waiting
    /// row's `pk` is at least that of the collection's first waiting insert, and the rows after
    /// it were inserted since (a bulk load indexes the backlog before it inserts). So they are
    /// one range of the table, read in one seek however large the table is, rather than a seek
    /// by id per row. No insert waits: the subquery is NULL and the range empty.
    static func matchesSQL(table: String, titleColumn: String) -> String {
        let table = CatalogTable.quote(table)
        return """
            SELECT t.pk, t.\(CatalogTable.quote(titleColumn)), t.id FROM \(table) AS t
            WHERE t.pk >= (SELECT f.pk FROM \(table) AS f WHERE f.id = (
                SELECT c.item_id FROM changes AS c WHERE c.collection = ? AND c.op = 'insert'
                  AND c.seq >= (SELECT min(first) FROM search_backlog) ORDER BY c.seq LIMIT 1))
              AND (instr(t.title_key, ?) > 0 OR instr(t.subtitle_key, ?) > 0)
            """
    }

    /// Records that the inserts among change-log entries `first...last` are not indexed.
    static func record(_ db: Database, first: Int64, last: Int64) throws {
        try db.cachedStatement(sql: "INSERT INTO search_backlog (first, last) VALUES (?, ?)").execute(arguments: [first, last])
    }

    /// The first change-log entry the backlog names; nil when it is empty.
    static func firstWaiting(_ db: any RowSource) throws -> Int64? {
        try db.integer("SELECT min(first) FROM search_backlog", [])
    }

    /// Adds to `entries` the search entry of every insert the backlog names whose row still
    /// exists, in the order of the log, and empties the backlog. Returns how many were added.
    @discardableResult
    static func take(_ db: Database, tables: [String: CatalogTable], into entries: PendingSearchEntries) throws -> Int {
        let ranges = try db.all("SELECT first, last FROM search_backlog ORDER BY first", []) { row in (row.integer(0) ?? 0, row.integer(1) ?? 0) }
        guard !ranges.isEmpty else { return 0 }
        var inserted: [(table: CatalogTable, id: String)] = []
        for (first, last) in ranges {
            inserted += try db.all(
                "SELECT collection, item_id FROM changes WHERE seq BETWEEN ? AND ? AND op = 'insert' ORDER BY seq",
                [first.databaseValue, last.databaseValue]
            ) { row -> (table: CatalogTable, id: String)? in
                guard let name = row.text(0), let table = tables[name], table.searchTable != nil, let id = row.text(1) else { return nil }
                return (table, id)
            }
        }
        let before = entries.count
        for (table, id) in inserted {
            try db.each(table.currentRowSQL, [id.databaseValue]) { row in
                if let pk = row.integer(1) { entries.add(table, pk: pk, title: row.text(2), subtitle: row.text(3)) }
                return false
            }
        }
        try db.execute(sql: "DELETE FROM search_backlog")
        return entries.count - before
    }

    /// Indexes the backlog now, in the caller's transaction (opening, closing, rebuilding).
    static func apply(_ db: Database, tables: [String: CatalogTable]) throws {
        let entries = PendingSearchEntries()
        guard try take(db, tables: tables, into: entries) > 0 else { return }
        try entries.apply(db)
    }
}
