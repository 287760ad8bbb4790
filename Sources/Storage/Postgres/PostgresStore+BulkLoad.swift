import Domain

extension PostgresStore: BulkLoadingStore {
    /// Runs `body` with a loader in one transaction behind the writers' lock, committed when
    /// `body` returns; every instance is notified once, at the commit.
    ///
    /// Each insert is written as the API writes one; its change-log entries are written at the
    /// end, only those the retention keeps. PostgreSQL keeps its trigram indexes itself, so
    /// nothing is left to do once per collection as on SQLite. A statement that fails aborts a PostgreSQL
    /// transaction, so only refusals found before writing (an existing id, a reference to
    /// nothing) let a load go on.
    public func bulkLoad<T>(_ body: (CatalogBulkLoader) throws -> T) throws -> T {
        let (result, committed) = try pool.writing { db in
            let start = try db.integer(Self.latestSQL, []) ?? 0
            let writer = CatalogWriter(
                db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog, changes: PendingChanges(after: start))
            let loader = CatalogBulkLoader(writer: writer, tables: tables)
            let result = try body(loader)
            if let failure = loader.failure { throw failure }
            return (result, try finish(db, writer.changes, force: true))
        }
        state.withLock { $0.apply(versions: committed.versions, latest: committed.latest) }
        try analyze(committed.versions.keys.compactMap { tables[$0]?.name })
        return result
    }

    /// Statistics for `tables` now, not when autovacuum next comes by: a search's plan is made
    /// for its text from them, and on a freshly loaded table without them PostgreSQL walked
    /// whole indexes for a text that matches nothing.
    func analyze(_ tables: [String]) throws(StoreError) {
        guard !tables.isEmpty else { return }
        try StoreError.catching {
            try pool.withConnection { connection in
                try connection.executeScript("ANALYZE " + tables.sorted().map(CatalogTable.quote).joined(separator: ", "))
            }
        }
    }
}
