import Domain
import Foundation
import GRDB

/// The `ItemStore` on one SQLite file, in WAL mode through a GRDB `DatabasePool`.
///
/// Reads run on the caller's thread on one of the pool's reader connections, each in its own
/// snapshot. Writes go through a single group-committing writer (`SQLiteStore+Writes.swift`):
/// a write is answered only after its transaction committed with `synchronous=FULL`.
public final class SQLiteStore: ItemStore, Sendable {
    let pool: DatabasePool
    let options: Options
    let state: Locked<StoreState>
    let queue = WriteQueue<WriteOperation, Versioned<StoredItem>?>()
    let counters = Locked(WriteCounters())

    /// Opens (creating it if needed) the database at `path`, migrates it, and seeds it when new.
    public init(path: String, options: Options = Options()) throws(StoreError) {
        self.options = options
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(options.busyTimeout)
        let cacheSize = options.cacheSizeKiB
        let mmapSize = options.mmapSizeMiB * 1_048_576
        configuration.prepareDatabase { db in
            // FULL: in WAL mode a commit is durable once it returns, not only consistent.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheSize)")
            // Statement and savepoint journals in memory: every insert fires the search triggers
            // and every grouped write has its savepoint, and a journal file would be written page
            // by page for each of them (17 writes per item in a bulk load, before this).
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // A bulk load grows the WAL to the size of its transaction; give the space back
            // after the next checkpoint.
            try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
            // Reads of a large database jump around the file (search reads thousands of rows by
            // key): mapped, a page costs a pointer instead of a pread and a copy. A quarter of
            // a search's time on a million products was the kernel copying pages.
            try db.execute(sql: "PRAGMA mmap_size = \(mmapSize)")
        }
        let isNew: Bool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let migrator = StoreSchema.migrator()
            isNew = try pool.read { try migrator.appliedIdentifiers($0).isEmpty }
            try migrator.migrate(pool)
            state = Locked(try pool.read(ChangeLog.loadState))
        } catch {
            throw StoreError.from(error)
        }
        if isNew && options.seedDemoData {
            try seedDemoData()
        }
    }

    public func item(_ collection: StoredCollection, id: EntityID) throws(StoreError) -> Versioned<StoredItem>? {
        let table = CollectionTable.of(collection)
        do {
            return try pool.read { db in
                let statement = try db.cachedStatement(sql: table.selectByIDSQL)
                guard let row = try Row.fetchOne(statement, arguments: [id.rawValue]) else { return nil }
                return try ItemColumns.decode(row, in: collection)
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    public func version(of collection: StoredCollection) -> Int64 {
        state.withLock { $0.versions[collection] ?? 0 }
    }

    public func latestSequence() -> Int64 {
        state.withLock { $0.latest }
    }

    public func checkHealth() throws(StoreError) {
        do {
            _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Closes the database connections; every later call fails with `.unavailable`.
    ///
    /// Writes already acknowledged are on disk whether or not the store is closed; closing
    /// matters to tests that reopen the same file, and to a clean shutdown.
    public func close() throws(StoreError) {
        do {
            // GRDB closes the writer before the read-only readers, so no connection is left
            // that may checkpoint on close: the WAL would stay, as large as the last bulk load,
            // and the next open would spend its time reading it back.
            try checkpoint()
            try pool.close()
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Copies the WAL into the database file and truncates it.
    func checkpoint() throws {
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }

    /// The file this store opened.
    public var path: String { pool.path }
}
