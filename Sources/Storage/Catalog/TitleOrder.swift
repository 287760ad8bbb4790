import GRDB

/// The `ord` column of an ordered table (`CatalogTable.ordered`): an integer per row that
/// follows the order `(titleOrderColumn, id)`, with gaps, and is the search index's rowid.
///
/// FTS5 keeps each trigram's matches in rowid order and seeks a rowid in them without reading
/// what comes before. With the rowid in title order, a search in that order reads its page's
/// matches from the position on and stops, however far into the order its first match is.
///
/// A row has an `ord` exactly when its search entry is in the index, under that rowid: an
/// insert leaves it NULL and an update clears it, and `PendingSearchEntries.apply` places the
/// row (`place`) when it adds the entry, between its placed neighbours. When no integer is
/// left between them, the rows around it are spread out again (`spread`), their entries moved
/// with them. A bulk load into an empty table, a rebuild of the derived columns and the
/// migration of a file from before number every row at once (`numberAll`).
enum TitleOrder {
    /// The gap after a row added past the last one (2^32: 32 rows can then be put between
    /// them before rows are spread out), and the least gap between rows numbered at once.
    /// A row added between two rows takes the middle instead: capping that at a step (as this
    /// did once) packed every row later added between two far-apart rows into the first steps
    /// of their gap, which a spread then had to cross whole to reach the room left behind.
    static let step: Int64 = 1 << 32

    /// What one apply of a table's search entries placed (`OrderedChanges`): the ords of the
    /// rows it adds to the index (not in it yet), and the changes to the index that moving
    /// rows already in it takes, made later in rowid order with the apply's own.
    struct Applied {
        var ords: [Int64: Int64] = [:]
        var moves: [IndexChange] = []
    }

    /// One change to the search index: an entry added or removed under `rowid`.
    struct IndexChange {
        let rowid: Int64
        let removes: Bool
        let title: String?
        let subtitle: String?
    }

    /// Places row `pk` between its neighbours; returns its new `ord`, or nil when the row is
    /// gone. Rows spread out to make room move in the index and in `applied`.
    static func place(_ pk: Int64, in table: CatalogTable, applied: inout Applied, _ db: Database) throws -> Int64? {
        guard let sql = table.titleOrderSQL, let row = try Row.fetchOne(db.cachedStatement(sql: sql.keyOfRow), arguments: [pk]) else {
            return nil
        }
        let key: DatabaseValue = row[0]
        let id: DatabaseValue = row[1]
        // Up to `count` placed rows next to the row in the order, nearest first, leaving it out.
        func neighbours(before: Bool, _ count: Int) throws -> [(pk: Int64, ord: Int64)] {
            try Row.fetchAll(db.cachedStatement(sql: before ? sql.rowsBefore : sql.rowsAfter), arguments: [key, id, pk, count]).map { ($0[0], $0[1]) }
        }
        // Room between the two neighbours: the middle; after the last row, a step after it (so
        // rows added in order at the end leave room behind them).
        let lower = try neighbours(before: true, 1).first?.ord ?? 0
        let upper = try neighbours(before: false, 1).first?.ord
        let ord = between(lower, upper)
        if ord > lower {
            try db.cachedStatement(sql: sql.setOrd).execute(arguments: [ord, pk])
            return ord
        }
        // None: the rows around it are spread out (`SpreadWindow`), fetched in growing numbers
        // until the window they give leaves room enough.
        var fetched = 64
        while true {
            let before = try neighbours(before: true, fetched + 1)
            let after = try neighbours(before: false, fetched + 1)
            let lastOrd = after.last?.ord ?? lower
            if let window = SpreadWindow(before: before.map(\.ord), after: after.map(\.ord), fetched: fetched, lastOrd: lastOrd) {
                let pks = before.prefix(window.left).reversed().map(\.pk) + [pk] + after.prefix(window.right).map(\.pk)
                return try spread(pks, self: pk, low: window.low, gap: window.gap, table: table, sql: sql, applied: &applied, db)
            }
            fetched *= 4
        }
    }

    /// Where a row goes between placed rows at `lower` (0: none) and `upper` (nil: none): the
    /// middle, or a step past the last row. No room when it is `lower`.
    static func between(_ lower: Int64, _ upper: Int64?) -> Int64 {
        upper.map { lower + ($0 - lower) / 2 } ?? after(lower)
    }

    /// A step after `ord`, or the largest ord when that is past it (never, in practice: 2^31
    /// rows added at the end of a million; then the rows are spread out below it).
    static func after(_ ord: Int64) -> Int64 {
        let (next, overflow) = ord.addingReportingOverflow(step)
        return overflow ? Int64.max : next
    }

    /// Gives the rows `pks` (in order) the ords `low + gap`, `low + 2 gap`, …: a row this apply
    /// placed gets its new ord in `applied`, a row in the index moves there too (its entry
    /// removed and added again, in `applied.moves`). Returns `placed`'s ord.
    private static func spread(
        _ pks: [Int64], self placed: Int64, low: Int64, gap: Int64, table: CatalogTable, sql: TitleOrderSQL, applied: inout Applied,
        _ db: Database
    ) throws -> Int64 {
        guard gap >= 1 else { throw StoreError.invariant("no room for another row in the title order of \(table.name)") }
        var result = low + gap
        for (offset, pk) in pks.enumerated() {
            let ord = low + gap * Int64(offset + 1)
            if pk == placed {
                result = ord
            } else if applied.ords[pk] != nil {
                applied.ords[pk] = ord
            } else if let row = try Row.fetchOne(
                db.cachedStatement(sql: sql.indexedRow), arguments: [pk]),
                let old: Int64 = row[0], old != ord
            {
                applied.moves.append(IndexChange(rowid: old, removes: true, title: row[1], subtitle: row[2]))
                applied.moves.append(IndexChange(rowid: ord, removes: false, title: row[1], subtitle: row[2]))
            }
            try db.cachedStatement(sql: sql.setOrd).execute(arguments: [ord, pk])
        }
        return result
    }

    /// Where a spread that reaches the last row may go up to: 2^62, half the integers, so the
    /// rows after the last one numbered have room whatever was numbered before.
    static let end: Int64 = 1 << 62

    /// Numbers every row of `table` in the order, as far apart as half the integers allow
    /// (2^42 for a million rows, at least `step`): rows written later between two of them (a
    /// million "Bench N" between two product names) find room there, spread out within it
    /// (`SpreadWindow`) rather than among the rows around it.
    /// Its search index is then made again, or filled, by the caller.
    static func numberAll(_ table: CatalogTable, _ db: Database) throws {
        guard let column = table.titleOrderColumn.map(CatalogTable.quote) else { return }
        let quoted = CatalogTable.quote(table.name)
        let rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM \(quoted)") ?? 0
        let gap = max(step, end / (rows + 1))
        try db.execute(
            sql: """
                UPDATE \(quoted) SET ord = numbered.n * ? FROM (SELECT pk, row_number() OVER (ORDER BY \(column), id) AS n FROM \(quoted)) AS numbered
                WHERE \(quoted).pk = numbered.pk
                """, arguments: [gap])
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
