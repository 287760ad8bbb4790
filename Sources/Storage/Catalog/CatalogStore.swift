import Domain
import Foundation
import GRDB

/// The store of any catalog: one SQLite file (WAL, GRDB `DatabasePool`) with a table per
/// collection compiled from its definition (`CatalogTable`, `CatalogSchema`).
///
/// Reads run on the caller's thread in their own snapshot; writes go through one
/// group-committing writer and are answered after their commit is durable (`synchronous=FULL`).
public final class CatalogStore: Sendable {
    public let catalog: Catalog
    let pool: DatabasePool
    let options: CatalogStore.Options
    let tables: [String: CatalogTable]
    let renderers: [String: ItemRenderer]
    let state: Locked<StoreState>
    let rowCounts = RowCounts()
    let queue = WriteQueue<StoreWrite, WrittenItems>()
    let counters = Locked(WriteCounters())
    /// The search grams the writer knows the file holds (`KnownGrams`); the writer's alone.
    let knownGrams = Locked(KnownGrams())
    /// Inserts this writer left in the search backlog since it last indexed it (`SearchBacklog`).
    let searchBacklogCount = Locked(0)
    /// The `Idempotency-Key`s of this file, through the store's own connections.
    public let idempotency: IdempotencyStore
    /// The connections pages (but searches) and items are read on.
    let readers: ReaderPool
    /// Commits to the file by anyone: when it moves past `state.stamp`, `state` is read again.
    let commits: CommitCounter
    /// The API keys of this file, read through the store's own connections and cached while
    /// the commit counter moves only by this store's catalog writes.
    public let keys: KeyStore

    /// Opens (creating it if needed) the database at `path` for `catalog`: new collections,
    /// fields and indexes are added; a change that would lose data refuses to open
    /// (`StoreError.incompatibleDefinition`) and leaves the file as it was.
    public init(path: String, catalog: Catalog, options: Options = Options()) throws(StoreError) {
        self.catalog = catalog
        self.options = options
        let (tables, renderers) = Self.compile(catalog, ordered: true)
        self.tables = tables
        self.renderers = renderers
        readers = ReaderPool(path: path, options: options)
        var configuration = Configuration()
        configuration.busyMode = .timeout(options.busyTimeout)
        let cacheSize = options.cacheSizeKiB
        let mmapSize = options.mmapSizeMiB * 1_048_576
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -\(cacheSize)")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
            try db.execute(sql: "PRAGMA mmap_size = \(mmapSize)")
        }
        let ordered = catalog.collections.compactMap { tables[$0.name] }
        var isNew = false
        do {
            pool = try DurablePool.open(path: path, configuration: configuration)
            try pool.write { db in
                isNew = try !db.tableExists("catalog_fields")
                var stale = Set<String>()
                for table in ordered where try db.tableExists(table.name) {
                    if try CatalogSchema.derivationChanged(table, catalog: catalog, db) { stale.insert(table.collection.name) }
                }
                let added = try CatalogSchema.migrate(db, tables: ordered, catalog: catalog)
                // Inserts a process left unindexed (it stopped without closing the store).
                try SearchBacklog.apply(db, tables: tables)
                for table in ordered where stale.contains(table.collection.name) || added.contains(where: { $0.name == table.name }) {
                    try Self.recomputeDerived(table, db: db, tables: tables, renderers: renderers)
                }
            }
            commits = try CommitCounter(path: path, options: options)
            keys = KeyStore(pool: pool, commits: commits, cacheAge: options.keyCacheAge)
            // The counter first: the versions read after it are at least as new as it says.
            let seen = commits.value
            var loaded = try pool.read { db in try StoreState.load(db, catalog: catalog, latestSQL: Self.latestSQL) }
            loaded.stamp = UInt64(seen)
            loaded.recent = RecentChanges(at: loaded.latest, capacity: options.recentChanges)
            state = Locked(loaded)
            idempotency = IdempotencyStore(database: pool)
        } catch {
            throw StoreError.from(error)
        }
        if isNew, let seedItems = options.seedItems {
            try seed(seedItems(catalog))
        }
    }

    static func fetchItem(_ source: any RowSource, table: CatalogTable, id: EntityID) throws -> Versioned<Item>? {
        try source.first(table.selectByIDSQL, [id.rawValue.databaseValue]) { try CatalogColumns.decode($0, in: table) }
    }

    /// The items that `items`' reference fields point to (of `table`; only `fields` when
    /// given), by id, among `tables`, for either database.
    static func references(
        _ source: any RowSource, of items: [Item], in table: CatalogTable, fields: [Int]?, tables: [String: CatalogTable]
    ) throws -> ReferencedItems {
        var found = ReferencedItems()
        var seen = Set<EntityID>()
        if fields?.isEmpty == true { return found }
        for reference in table.references where fields?.contains(reference.field) ?? true {
            guard let target = tables[reference.target] else { continue }
            for item in items {
                guard let id = item[slot: reference.slot].reference, seen.insert(id).inserted else { continue }
                if let referenced = try Self.fetchItem(source, table: target, id: id) { found.insert(referenced.item) }
            }
        }
        return found
    }

    public func checkHealth() throws(StoreError) {
        _ = try StoreError.catching { try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } }
    }

    /// Checkpoints and closes the connections; later calls fail (SQLite: misuse of a closed connection).
    public func close() throws(StoreError) {
        try StoreError.catching {
            readers.close()
            let tables = tables
            try pool.write { db in try SearchBacklog.apply(db, tables: tables) }
            try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            try pool.close()
        }
    }

    public var path: String { pool.path }

    /// What the writer has done since the store opened.
    public var writeCounters: WriteCounters { counters.withLock { $0 } }

    /// Rewrites every row's derived columns (sort, section and search keys) and its search entry.
    static func recomputeDerived(_ table: CatalogTable, db: Database, tables: [String: CatalogTable], renderers: [String: ItemRenderer]) throws {
        try rewriteDerivedColumns(table, db: db, tables: tables, renderers: renderers)
        if table.ordered { try TitleOrder.numberAll(table, db) }
        if let search = table.searchTable {
            try db.execute(sql: "INSERT INTO \(CatalogTable.quote(search)) (\(CatalogTable.quote(search))) VALUES ('rebuild')")
            try SearchGrams.refill(table, db)
        }
    }

    /// Rewrites every row's derived columns (sort, section and search keys, an outline row's number of
    /// children), on either database.
    static func rewriteDerivedColumns(
        _ table: CatalogTable, db: any SQLConnection, tables: [String: CatalogTable], renderers: [String: ItemRenderer]
    ) throws {
        guard let renderer = renderers[table.collection.name] else { return }
        // Read whole before rewriting: no statement stays open over the table it updates.
        let items = try db.all("SELECT \(table.selectList) FROM \(CatalogTable.quote(table.name)) AS t", []) { row in
            try CatalogColumns.decode(row, in: table)
        }
        for item in items {
            let sectionKey = try CatalogWriter.sectionKey(of: item.item, in: table, db: db, tables: tables, renderers: renderers)
            let values: [(any DatabaseValueConvertible)?] =
                [item.version] + CatalogColumns.values(of: item.item, in: table, renderer: renderer, sectionKey: sectionKey) + [item.item.id.rawValue]
            try db.run(table.updateSQL, values.map { $0?.databaseValue ?? .null })
        }
        if let recount = table.recountChildrenSQL { try db.run(recount, []) }
    }
}

extension StoreState {
    /// Applies a commit of this process's that the counter read `before` it (in the same write
    /// lock) was the only one since: the state stays current without a read.
    ///
    /// Only when it wrote (a transaction that changed nothing does not count), and only from
    /// `before`: had another commit slipped in, the counter is past `before + 1` and the next
    /// read of the state reads the file.
    ///
    /// `changes`: the items it changed, after `start` (nil: not named, and the window of recent
    /// changes starts again after it).
    mutating func apply(
        versions: [String: Int64], latest: Int64, committedAfter before: UInt32, changes: [ChangedItem]?, since start: Int64
    ) {
        apply(versions: versions, latest: latest)
        if !versions.isEmpty && stamp == UInt64(before) {
            stamp = UInt64(before &+ 1)
            recent.follow(changes, after: start, through: latest)
        }
    }
}

extension CatalogStore: StoreEngine {
    /// The file's commit counter: it moves with every commit, whoever made it.
    var commitStamp: UInt64? { UInt64(commits.value) }
    static let latestSQL = ChangeLog.latestSQL
    static let readsStateAtOpen = true
    /// A header's item is read by its key in the page's transaction: in the process, for less
    /// than a join costs each row.
    static let joinsSectionItems = false

    func readStatement<T>(_ body: (any RowSource) throws -> T) throws -> T {
        try readers.read { connection in try body(connection) }
    }

    func readSnapshot<T>(_ body: (any RowSource) throws -> T) throws -> T {
        try readers.read { connection in try connection.inTransaction { try body(connection) } }
    }
}
