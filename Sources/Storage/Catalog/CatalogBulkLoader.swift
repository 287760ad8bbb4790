import Domain
import GRDB

/// Inserts many items in one transaction: all of them or none (`generate`, `import`).
///
/// An item that cannot be inserted (a duplicate id, a reference to nothing) is refused with
/// nothing of it written, so the caller can report it and go on; the caller decides
/// whether to commit by returning or throwing from the body. No savepoint per item (SQLite
/// runs two statements for each): a failure while an item is being
/// written fails the whole load instead, every later insert, and the transaction.
public final class CatalogBulkLoader {
    let writer: CatalogWriter
    let tables: [String: CatalogTable]
    public private(set) var insertedCount = 0
    /// The error that stopped the load while an item was half written.
    private(set) var failure: StoreError?

    init(writer: CatalogWriter, tables: [String: CatalogTable]) {
        self.writer = writer
        self.tables = tables
    }

    /// Inserts `item` into `collection`; a refused item leaves no trace.
    public func insert(_ item: Item, into collection: String) throws(StoreError) {
        if let failure { throw failure }
        guard let table = tables[collection] else { throw StoreError.invariant("no collection \(collection)") }
        let columns = try StoreError.catching { try writer.checkInsert(item, into: table) }
        let written: Versioned<Item>?
        do {
            written = try writer.writeInsert(item, columns: columns, into: table)
            // Its parent's number of children, as an insert through the API counts it (no
            // change entry: a load's entries are made from its rows).
            if written != nil, let parent = table.treeColumn.flatMap({ _ in table.parentID(of: item) }) {
                try writer.countChildren(of: parent, adding: 1, in: table)
            }
        } catch {
            let failure = StoreError.from(error)
            self.failure = failure
            throw failure
        }
        guard written != nil else {
            throw try StoreError.catching { try writer.existing(item.id, in: table) }
        }
        insertedCount += 1
    }
}

extension CatalogStore {
    /// Runs `body` with a loader inside one write transaction, committed when `body` returns.
    ///
    /// What a load would do row by row is done once per collection at its end: the new rows are
    /// indexed for search (FTS5 writes a segment at every savepoint, and a per-row index made a
    /// load spend most of its time merging them), and their change-log entries are made from
    /// the rows, leaving out those the retention would prune at once. New rows are told apart
    /// by key: `pk` is an `INTEGER PRIMARY KEY`, so they get keys above the largest.
    public func bulkLoad<T>(_ body: (CatalogBulkLoader) throws -> T) throws -> T {
        let (result, versions, latest) = try pool.write { db in
            // Its new rows are told apart by key, and a search finds the waiting inserts as the
            // rows after the first of them (`SearchBacklog.matchesSQL`): none may wait.
            try SearchBacklog.apply(db, tables: tables)
            let start = try ChangeLog.latestSequence(db)
            let sequence = PendingChanges(after: start, recording: false)
            let writer = CatalogWriter(db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog, changes: sequence)
            var lastKeys: [String: Int64] = [:]
            for table in tables.values {
                lastKeys[table.name] = try Int64.fetchOne(db, sql: "SELECT max(pk) FROM \(CatalogTable.quote(table.name))") ?? 0
            }
            // A load inserts into every index at random places: a large page cache keeps them
            // in memory instead of spilling dirty pages to the WAL mid-transaction.
            try db.execute(sql: "PRAGMA cache_size = -\(max(options.cacheSizeKiB, Self.bulkLoadCacheKiB))")
            defer { try? db.execute(sql: "PRAGMA cache_size = -\(options.cacheSizeKiB)") }
            let loader = CatalogBulkLoader(writer: writer, tables: tables)
            let result = try body(loader)
            if let failure = loader.failure { throw failure }
            let cutoff = sequence.last - Int64(options.changeRetention)
            var loaded: [String: Int64] = [:]
            for table in tables.values.sorted(by: { $0.name < $1.name }) {
                let quoted = CatalogTable.quote(table.name)
                let key = lastKeys[table.name] ?? 0
                guard let newest = try Int64.fetchOne(db, sql: "SELECT max(version) FROM \(quoted) WHERE pk > ?", arguments: [key]) else { continue }
                loaded[table.collection.name] = newest
                if let search = table.searchTable.map(CatalogTable.quote) {
                    // In an ordered table with no placed row, every row is numbered and indexed in
                    // order; into one with rows, each new row is placed between its neighbours.
                    if !table.ordered {
                        try db.execute(
                            sql:
                                "INSERT INTO \(search) (rowid, title_key, subtitle_key) SELECT pk, title_key, subtitle_key FROM \(quoted) WHERE pk > ?",
                            arguments: [key])
                    } else if try Int64.fetchOne(db, sql: "SELECT 1 FROM \(quoted) WHERE ord IS NOT NULL LIMIT 1") == nil {
                        try TitleOrder.numberAll(table, db)
                        try db.execute(
                            sql:
                                "INSERT INTO \(search) (rowid, title_key, subtitle_key) SELECT ord, title_key, subtitle_key FROM \(quoted) ORDER BY ord"
                        )
                    } else {
                        let entries = PendingSearchEntries()
                        try db.each("SELECT pk, title_key, subtitle_key FROM \(quoted) WHERE pk > ?", [key.databaseValue]) { row in
                            entries.add(table, pk: row.integer(0) ?? 0, title: row.text(1), subtitle: row.text(2))
                            return true
                        }
                        try entries.apply(db)
                    }
                    try SearchGrams.refill(table, db)
                    // A load leaves the index in many segments, each of which a search seeks in:
                    // merged into one, searches are cheaper.
                    try db.execute(sql: "INSERT INTO \(search) (\(search)) VALUES ('optimize')")
                }
                // Explicit sequences: AUTOINCREMENT moves the log's counter up to the largest.
                try db.execute(
                    sql: """
                        INSERT INTO changes (seq, collection, item_id, op, committed_at, parent_id)
                        SELECT version, ?, id, 'insert', ?, \(table.loggedParentColumn.map(CatalogTable.quote) ?? "NULL")
                        FROM \(quoted) WHERE pk > ? AND version > ? ORDER BY version
                        """,
                    arguments: [table.collection.name, writer.now, key, cutoff])
            }
            let (versions, latest) = try finish(db, since: start, force: true, loaded: loaded)
            return (result, versions, latest)
        }
        searchBacklogCount.withLock { $0 = 0 }
        state.withLock { $0.apply(versions: versions, latest: latest) }
        return result
    }

    /// The page cache of a bulk load's connection while it runs, in KiB.
    static let bulkLoadCacheKiB = 262_144
}
