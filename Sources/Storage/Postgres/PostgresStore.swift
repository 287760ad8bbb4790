import Domain
import Foundation
import GRDB

/// The store of any catalog on PostgreSQL: the same tables, SQL and answers as the SQLite store
/// (`CatalogStore`), shared by every rowserver instance that names the same database.
///
/// Reads run on a pool of connections (`PostgresPool`), a page in one statement. Writes are
/// group-committed by each instance's writer, at once with the other instances' writers; only
/// their entries in the change log wait on one advisory lock, so the log's sequence follows
/// commit order everywhere (`PostgresStore+Writes`). Each
/// commit notifies (`NOTIFY rowserver_commits`): every instance's listener then reads the
/// versions again before its next answer (`PostgresListener`), so list tags, cached pages and
/// feed tokens stay exact across instances.
public final class PostgresStore: ItemStore {
    public let catalog: Catalog
    let options: CatalogStore.Options
    let tables: [String: CatalogTable]
    let renderers: [String: ItemRenderer]
    let pool: PostgresPool
    let listener: PostgresListener
    let state = Locked(StoreState())
    let rowCounts = RowCounts()
    let queue = WriteQueue<StoreWrite, WrittenItems>()
    let writer = DispatchQueue(label: "rowserver.postgres.writer")
    public let idempotency: IdempotencyStore
    public let keys: KeyStore

    /// Connects to `url` (a libpq URI, `postgres://user@host:port/db`), makes the catalog's tables
    /// when the database has none, and fills a new database with `options.seedItems`.
    ///
    /// `connections`: at most this many open at once (plus the listener's). Three instances at
    /// the default stay well under PostgreSQL's default `max_connections` (100).
    public init(url: String, catalog: Catalog, options: CatalogStore.Options = .init(), connections: Int = 16) throws(StoreError) {
        self.catalog = catalog
        self.options = options
        let (tables, renderers) = Self.compile(catalog, ordered: false)
        self.tables = tables
        self.renderers = renderers
        pool = PostgresPool(url: url, maximum: connections, wait: options.busyTimeout)
        idempotency = IdempotencyStore(database: pool)
        let listener = PostgresListener(url: url, channel: Self.channel)
        self.listener = listener
        keys = KeyStore(postgres: pool) { listener.keysGeneration }
        let ordered = catalog.collections.compactMap { tables[$0.name] }
        do {
            let isNew = try pool.writing { db in try Self.prepare(db, tables: ordered, catalog: catalog, renderers: renderers) }
            if isNew, let seedItems = options.seedItems {
                try seed(seedItems(catalog))
            }
        } catch {
            listener.stop()
            throw StoreError.from(error)
        }
    }

    /// The channel every commit notifies.
    static let channel = "rowserver_commits"

    /// Makes what is missing and follows the definition's changes as a SQLite store does
    /// (`CatalogSchema`: the same additions, recomputations and refusals); true when the database
    /// had no catalog before.
    private static func prepare(
        _ db: any SQLConnection, tables: [CatalogTable], catalog: Catalog, renderers: [String: ItemRenderer]
    ) throws -> Bool {
        let isNew = try db.integer("SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'catalog_derivations'", []) == nil
        for statement in PostgresSchema.baseStatements { try db.run(statement, []) }
        try CatalogSchema.refuseDroppedCollections(db, catalog: catalog)
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.collection.name, $0) })
        for table in tables {
            if try PostgresSchema.tableExists(table.name, db) {
                let stale = try CatalogSchema.derivationChanged(table, catalog: catalog, db)
                let added = try CatalogSchema.evolve(table, db, dialect: PostgresSchema.dialect(db))
                try PostgresSchema.syncIndexes(table, db)
                if stale || added { try CatalogStore.rewriteDerivedColumns(table, db: db, tables: byName, renderers: renderers) }
            } else {
                for statement in PostgresSchema.createStatements(table) { try db.run(statement, []) }
                try CatalogSchema.recordPrefix(of: table, db)
                for field in table.collection.storedFields { try CatalogSchema.record(field, of: table, db) }
            }
            try CatalogSchema.recordDerivation(of: table, catalog: catalog, db)
        }
        return isNew
    }

    /// PostgreSQL's newest sequence: a counter each commit sets (sequences are not transactional).
    static let latestSQL = "SELECT value FROM store_counters WHERE name = 'latest'"

    public func checkHealth() throws(StoreError) {
        _ = try StoreError.catching { try pool.withConnection { connection in try connection.integer("SELECT 1", []) } }
    }

    /// Stops the listener and closes the idle connections; later calls fail.
    public func close() {
        listener.stop()
        pool.close()
    }

    /// The API keys of the PostgreSQL database at `url`, for `rowserver keys`: its tables made
    /// when it has none (a server started later fills in the collections).
    public static func keys(url: String) throws(StoreError) -> KeyStore {
        let pool = PostgresPool(url: url, maximum: 2)
        try StoreError.catching {
            try pool.writing { db in
                for statement in PostgresSchema.baseStatements { try db.run(statement, []) }
            }
        }
        return KeyStore(postgres: pool)
    }

    /// The key that signs cursors and change tokens, shared by every instance on this database:
    /// the stored one, or `made` stored by the first instance to ask.
    public func sharedTokenKey(orStore made: [UInt8]) throws(StoreError) -> [UInt8] {
        return try StoreError.catching {
            return try pool.writing { db in
                if let stored = try db.first("SELECT value FROM store_secrets WHERE name = 'token_key'", [], { $0.bytes(0) }) { return stored }
                try db.run("INSERT INTO store_secrets (name, value) VALUES ('token_key', ?)", [Data(made).databaseValue])
                return made
            }
        }
    }
}

extension PostgresStore: StoreEngine {
    /// The listener's generation: it moves with every notified commit.
    var commitStamp: UInt64? { listener.generation }
    static let readsStateAtOpen = false
    /// A header's item is read in the page's one statement: a snapshot of its own is a round trip more.
    static let joinsSectionItems = true

    func readStatement<T>(_ body: (any RowSource) throws -> T) throws -> T {
        try pool.withConnection { connection in try body(connection) }
    }
}
