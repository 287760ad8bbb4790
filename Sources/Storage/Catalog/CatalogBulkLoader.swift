import Domain
import GRDB

/// Inserts many items in one transaction: all of them or none (`generate`, `import`).
///
/// Each insert runs in its own savepoint, so a refused item (a duplicate id, a reference to
/// nothing) can be reported and the load goes on; the caller decides whether to commit by
/// returning or throwing from the body.
public final class CatalogBulkLoader {
    let writer: CatalogWriter
    let tables: [String: CatalogTable]
    public private(set) var insertedCount = 0

    init(writer: CatalogWriter, tables: [String: CatalogTable]) {
        self.writer = writer
        self.tables = tables
    }

    /// Inserts `item` into `collection`; a refused item leaves no trace.
    public func insert(_ item: Item, into collection: String) throws(StoreError) {
        guard let table = tables[collection] else { throw StoreError.unavailable("no collection \(collection)") }
        do {
            try writer.db.inSavepoint {
                _ = try writer.insert(item, into: table)
                return .commit
            }
        } catch {
            throw StoreError.from(error)
        }
        insertedCount += 1
    }
}

extension CatalogStore {
    /// Runs `body` with a loader inside one write transaction, committed when `body` returns.
    /// The new rows are indexed for search at the end, in one statement per collection.
    public func bulkLoad<T>(_ body: (CatalogBulkLoader) throws -> T) throws -> T {
        let (result, versions, latest) = try pool.write { db in
            let start = try ChangeLog.latestSequence(db)
            var writer = CatalogWriter(db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog)
            writer.defersSearch = true
            let searched = tables.values.filter { $0.searchTable != nil }
            // New rows get keys above every existing one (SQLite's rowid: the largest plus one).
            var lastKeys: [String: Int64] = [:]
            for table in searched {
                lastKeys[table.name] = try Int64.fetchOne(db, sql: "SELECT max(pk) FROM \(CatalogTable.quote(table.name))") ?? 0
            }
            let result = try body(CatalogBulkLoader(writer: writer, tables: tables))
            // Updates and deletes of rows that were there before, then the new rows.
            try writer.search.apply(db)
            for table in searched {
                guard let search = table.searchTable.map(CatalogTable.quote) else { continue }
                try db.execute(
                    sql:
                        "INSERT INTO \(search) (rowid, title_key, subtitle_key) SELECT pk, title_key, subtitle_key FROM \(CatalogTable.quote(table.name)) WHERE pk > ?",
                    arguments: [lastKeys[table.name] ?? 0])
                if db.changesCount > 0 { try SearchGrams.refill(table, db) }
            }
            let (versions, latest) = try finish(db, since: start, force: true)
            return (result, versions, latest)
        }
        state.withLock { $0.apply(versions: versions, latest: latest) }
        return result
    }
}
