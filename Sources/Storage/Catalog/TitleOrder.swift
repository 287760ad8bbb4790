import GRDB

/// The `ord` column of an ordered table (`CatalogTable.ordered`): an integer per row that
/// follows the order `(titleOrderColumn, id)`, with gaps, and is the search index's rowid.
///
/// FTS5 keeps each trigram's matches in rowid order and seeks a rowid in them without reading
/// what comes before. With the rowid in title order, a search in that order reads its page's
/// matches from the position on and stops: a word inside 42,000 of a million titles, whose
/// first match in title order came after 46,000 index entries (7.6 ms walked), costs 0.2 ms,
/// and a word that starts 50,000 titles costs what any other does.
///
/// A row has an `ord` exactly when its search entry is in the index, under that rowid: an
/// insert leaves it NULL and an update clears it, and `PendingSearchEntries.apply` places the
/// row (`place`) when it adds the entry, between its placed neighbours. When no integer is
/// left between them, the rows around it are spread out again (`spread`), their entries moved
/// with them. A bulk load into an empty table, a rebuild of the derived columns and the
/// migration of a file from before number every row at once (`numberAll`).
enum TitleOrder {
    /// The gap between rows numbered at once: 2^32, so 32 rows can be put between two
    /// neighbours before the rows around them are spread out (a million rows use 2^52).
    static let step: Int64 = 1 << 32

    /// What one `PendingSearchEntries.apply` did to a table's rows, by `pk`: the ords it gave,
    /// and the texts each is indexed by (`nil`: its entry was removed, so the row is not in the
    /// index whatever its `ord`).
    struct Applied {
        var ords: [Int64: Int64] = [:]
        var texts: [Int64: (title: String?, subtitle: String?)?] = [:]
    }

    /// Places row `pk` between its neighbours; returns its new `ord`, or nil when the row is
    /// gone. Rows spread out to make room move in the index and in `applied`.
    static func place(_ pk: Int64, in table: CatalogTable, applied: inout Applied, _ db: Database) throws -> Int64? {
        guard let column = table.titleOrderColumn.map(CatalogTable.quote) else { return nil }
        let quoted = CatalogTable.quote(table.name)
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(column), id FROM \(quoted) WHERE pk = ?"), arguments: [pk]) else {
            return nil
        }
        let key: DatabaseValue = row[0]
        let id: DatabaseValue = row[1]
        func neighbours(before: Bool, _ count: Int) throws -> [(pk: Int64, ord: Int64)] {
            try Self.neighbours(of: pk, key, id, before: before, count: count, column: column, quoted: quoted, db)
        }
        // Room between the two neighbours: the middle; after the last row, a step after it (so
        // rows added in order at the end leave room behind them).
        let lower = try neighbours(before: true, 1).first?.ord ?? 0
        let upper = try neighbours(before: false, 1).first?.ord
        let ord = upper.map { lower + ($0 - lower) / 2 } ?? Self.after(lower)
        if ord > lower {
            try db.cachedStatement(sql: "UPDATE \(quoted) SET ord = ? WHERE pk = ?").execute(arguments: [ord, pk])
            return ord
        }
        // None: the rows around it are spread over a span wide enough for gaps of 1,024 (or
        // the whole table, past whose last row the span may grow).
        var width = 16
        while true {
            let before = try neighbours(before: true, width + 1)
            let after = try neighbours(before: false, width + 1)
            let low = before.count > width ? before[width].ord : 0
            let high = after.count > width ? after[width].ord : Self.after(after.last?.ord ?? lower)
            let window = before.prefix(width).reversed().map(\.pk) + [pk] + after.prefix(width).map(\.pk)
            let gap = (high - low) / Int64(window.count + 1)
            if gap >= 1_024 || (before.count <= width && after.count <= width) {
                return try spread(window, self: pk, low: low, gap: gap, table: table, applied: &applied, db)
            }
            width *= 4
        }
    }

    /// A step after `ord`, or the largest ord when that is past it (never, in practice: 2^31
    /// rows added at the end of a million; then the rows are spread out below it).
    private static func after(_ ord: Int64) -> Int64 {
        let (next, overflow) = ord.addingReportingOverflow(step)
        return overflow ? Int64.max : next
    }

    /// Up to `count` placed rows next to `(key, id)` in the order, nearest first, leaving out `pk`.
    private static func neighbours(
        of pk: Int64, _ key: DatabaseValue, _ id: DatabaseValue, before: Bool, count: Int, column: String, quoted: String, _ db: Database
    ) throws -> [(pk: Int64, ord: Int64)] {
        let sql =
            before
            ? "SELECT pk, ord FROM \(quoted) WHERE (\(column), id) < (?, ?) AND ord IS NOT NULL AND pk != ? ORDER BY \(column) DESC, id DESC LIMIT ?"
            : "SELECT pk, ord FROM \(quoted) WHERE (\(column), id) > (?, ?) AND ord IS NOT NULL AND pk != ? ORDER BY \(column), id LIMIT ?"
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [key, id, pk, count]).map { ($0[0], $0[1]) }
    }

    /// Gives the rows `pks` (in order) the ords `low + gap`, `low + 2 gap`, …; the entries of
    /// the indexed ones (all but `self` and the rows `applied` says are out) move with them:
    /// all deleted first, then inserted, so no two entries share a rowid on the way.
    private static func spread(
        _ pks: [Int64], self placed: Int64, low: Int64, gap: Int64, table: CatalogTable, applied: inout Applied, _ db: Database
    ) throws -> Int64 {
        let quoted = CatalogTable.quote(table.name)
        var moves: [(old: Int64, new: Int64, title: String?, subtitle: String?)] = []
        var result = low + gap
        for (offset, pk) in pks.enumerated() {
            let ord = low + gap * Int64(offset + 1)
            if pk == placed {
                result = ord
            } else if let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT ord, title_key, subtitle_key FROM \(quoted) WHERE pk = ?"), arguments: [pk]),
                let old: Int64 = row[0], old != ord
            {
                let texts = applied.texts[pk] ?? (row[1], row[2])
                if let texts { moves.append((old, ord, texts.title, texts.subtitle)) }
                if applied.ords[pk] != nil { applied.ords[pk] = ord }
            }
            try db.cachedStatement(sql: "UPDATE \(quoted) SET ord = ? WHERE pk = ?").execute(arguments: [ord, pk])
        }
        guard let insert = table.searchInsertSQL, let delete = table.searchDeleteSQL else { return result }
        for move in moves { try db.cachedStatement(sql: delete).execute(arguments: [move.old, move.title, move.subtitle]) }
        for move in moves { try db.cachedStatement(sql: insert).execute(arguments: [move.new, move.title, move.subtitle]) }
        return result
    }

    /// Numbers every row of `table` a `step` apart in the order (its search index is then
    /// made again, or filled, by the caller).
    static func numberAll(_ table: CatalogTable, _ db: Database) throws {
        guard let column = table.titleOrderColumn.map(CatalogTable.quote) else { return }
        let quoted = CatalogTable.quote(table.name)
        try db.execute(
            sql: """
                UPDATE \(quoted) SET ord = numbered.n * ? FROM (SELECT pk, row_number() OVER (ORDER BY \(column), id) AS n FROM \(quoted)) AS numbered
                WHERE \(quoted).pk = numbered.pk
                """, arguments: [step])
    }

    /// Brings an ordered table's search index to its key: a file from before `ord` (or a table
    /// whose definition became ordered, or stopped being) gets the column, its rows numbered,
    /// and its search index made again, keyed as `table` says. True when the index was remade.
    static func ensure(_ table: CatalogTable, _ db: Database) throws -> Bool {
        guard let search = table.searchTable else { return false }
        let key = table.ordered ? "ord" : "pk"
        let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [search]) ?? ""
        guard !sql.contains("content_rowid='\(key)'") else { return false }
        let quoted = CatalogTable.quote(table.name)
        if table.ordered, try !db.columns(in: table.name).contains(where: { $0.name == "ord" }) {
            try db.execute(sql: "ALTER TABLE \(quoted) ADD COLUMN ord INTEGER")
        }
        if table.ordered { try numberAll(table, db) }
        try db.execute(sql: "DROP TABLE IF EXISTS \(CatalogTable.quote(search))")
        try db.execute(sql: createSearchSQL(table))
        try db.execute(sql: "INSERT INTO \(CatalogTable.quote(search)) (\(CatalogTable.quote(search))) VALUES ('rebuild')")
        return true
    }

    /// The statement that creates `table`'s search index, keyed by `ord` when ordered.
    static func createSearchSQL(_ table: CatalogTable) -> String {
        let search = CatalogTable.quote(table.searchTable ?? "")
        return """
            CREATE VIRTUAL TABLE \(search) USING fts5(
                title_key, subtitle_key, content='\(table.name)', content_rowid='\(table.ordered ? "ord" : "pk")', tokenize='trigram case_sensitive 1')
            """
    }
}
