import Domain
import GRDB

/// Inserts many items in one transaction, bypassing group commit (seeding, `generate`, `import`).
///
/// Each item gets its own sequence as its version and a change-log entry, exactly as if it had
/// been inserted by `insert(_:)`: ETags and the change feed need no special case. The log keeps
/// the retention's newest entries when the load commits, so a large load expires feed tokens
/// from before it; entries that would be pruned at once are never written.
///
/// All or nothing: once an insert failed the load cannot commit (`SQLiteStore.bulkLoad` rolls
/// back), but later inserts still run their checks, so an import can report every bad line.
public final class BulkLoader {
    private let writer: ItemWriter
    /// The version the next item takes: sequences are handed out here, and the change-log
    /// entries written when the load ends (`DeferredBulkWork`).
    private(set) var nextSequence: Int64
    /// Each collection's newest version in this load.
    private(set) var versions: [StoredCollection: Int64] = [:]
    /// Items inserted so far in this load.
    public private(set) var insertedCount = 0
    /// The first insert that failed; set, it makes the load roll back.
    public private(set) var firstFailure: StoreError?

    init(writer: ItemWriter, latestSequence: Int64) {
        self.writer = writer
        nextSequence = latestSequence + 1
    }

    /// Inserts `item` (its id assigned) and returns its version.
    @discardableResult
    public func insert(_ item: StoredItem) throws(StoreError) -> Int64 {
        do {
            var unused = SearchIndexChanges()
            let version = try writer.insert(item, bulkVersion: nextSequence, search: &unused).version
            nextSequence += 1
            versions[item.collection] = version
            insertedCount += 1
            return version
        } catch {
            let failure = StoreError.from(error)
            if firstFailure == nil { firstFailure = failure }
            throw failure
        }
    }
}

extension SQLiteStore {
    /// Runs `body` in one write transaction with a `BulkLoader`; commits when it returns and no
    /// insert failed, rolls everything back otherwise (rethrowing `body`'s error, or the first
    /// failed insert's).
    ///
    /// The writer connection's page cache is raised for the load (index pages of a large load are
    /// then written to the WAL about once rather than each time they are evicted), and new rows
    /// are added to the search indexes in one statement per table at the end (`DeferredBulkWork`).
    public func bulkLoad<T>(_ body: (BulkLoader) throws -> T) throws -> T {
        var update = StoreState.Update(latest: 0)
        var value: T?
        do {
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = -262144")
                defer { try? db.execute(sql: "PRAGMA cache_size = -\(options.cacheSizeKiB)") }
                try db.inTransaction(.immediate) {
                    let start = try ChangeLog.latestSequence(db)
                    let now = Self.now()
                    let deferred = try DeferredBulkWork(db)
                    let loader = BulkLoader(writer: ItemWriter(db: db, now: now), latestSequence: start)
                    let result = try body(loader)
                    if let failure = loader.firstFailure { throw failure }
                    try deferred.finish(latest: loader.nextSequence - 1, retention: options.changeRetention, at: now)
                    update = try ChangeLog.finish(
                        db, since: start, retention: options.changeRetention, force: true, versions: loader.versions)
                    value = result
                    return .commit
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.from(error)
        }
        state.withLock { $0.apply(update) }
        // The load's pages are in the WAL; move them to the database now rather than leave a
        // WAL as large as the load for the next open to read back. Best effort: the load is
        // committed either way.
        try? checkpoint()
        guard let value else { throw StoreError.unavailable("bulk load produced no result") }
        return value
    }

    /// Fills a new database with the standard demo dataset of seed 1, in one transaction.
    func seedDemoData() throws(StoreError) {
        let dataset = DemoData(seed: 1).dataset(volume: .standard)
        do {
            try bulkLoad { loader in
                for item in dataset.storedItems { try loader.insert(item) }
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}

extension DemoDataset {
    /// Every item, in an order that inserts referenced items first.
    var storedItems: [StoredItem] {
        departments.map(StoredItem.department) + people.map(StoredItem.person) + products.map(StoredItem.product)
            + articles.map(StoredItem.article) + documents.map(StoredItem.document) + tracks.map(StoredItem.track)
            + samples.map(StoredItem.sample)
    }
}
