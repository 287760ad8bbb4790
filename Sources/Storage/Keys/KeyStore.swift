import Foundation
import GRDB

/// The API keys of a database file, in its `api_keys` table: what `rowserver keys` writes and
/// the server reads per request that carries a key.
///
/// A command opens the file on its own, without the collections (`keys create` on a new file
/// makes only this table, and a server started on that file later still fills it with its
/// data); a server reads keys through its catalog store's connections (`CatalogStore.keys`).
public final class KeyStore: Sendable {
    private let database: any SQLDatabase
    /// Entries checked per lookup against the file (SQLite) or the listener's generation
    /// (PostgreSQL); none for a command, which looks each key up once.
    let cache: KeyCache?
    /// Run in each key write's transaction on PostgreSQL: every instance's listener hears it, and
    /// their key caches empty.
    private let announcement: String?

    /// Keys through connections the caller opened, and already made the table in; `commits`,
    /// the file's commit counter, stamps the cache (the caller vouches for its own commits).
    init(pool: DatabasePool, commits: CommitCounter, cacheAge: Double) {
        self.database = pool
        self.cache = KeyCache(commits: commits, maximumAge: cacheAge)
        self.announcement = nil
    }

    /// The commit after commit count `before` changed no key (`KeyCache.vouch(commitAfter:)`).
    func vouch(commitAfter before: UInt32) {
        cache?.vouch(commitAfter: before)
    }

    /// Keys in a PostgreSQL database whose tables exist (`PostgresSchema`), cached while
    /// `generation` (the store's listener's `keysGeneration`) stays as it was; none without one.
    init(postgres: PostgresPool, generation: (@Sendable () -> UInt64?)? = nil) {
        self.database = postgres
        self.cache = generation.map { KeyCache(generation: $0) }
        self.announcement = "SELECT pg_notify('\(PostgresStore.channel)', '\(Self.changedPayload)')"
    }

    /// The payload of the notification a change of keys sends (`PostgresListener.keysGeneration`).
    static let changedPayload = "keys"

    static let createTable = """
        CREATE TABLE IF NOT EXISTS api_keys (
            id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash BLOB NOT NULL, scopes TEXT NOT NULL,
            created_at INTEGER NOT NULL, revoked_at INTEGER) WITHOUT ROWID
        """

    public init(path: String, busyTimeout: Double = 5) throws(StoreError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        do {
            let pool = try DurablePool.open(path: path, configuration: configuration)
            database = pool
            cache = KeyCache(databasePath: pool.path)
            announcement = nil
            try pool.write { db in try db.execute(sql: Self.createTable) }
        } catch {
            throw StoreError.from(error)
        }
    }

    private static let columns = "id, name, secret_hash, scopes, created_at, revoked_at"

    /// Adds a key; `id` must be new.
    public func add(_ key: APIKeyRecord) throws(StoreError) {
        try StoreError.catching {
            try database.writing { db in
                try db.run(
                    "INSERT INTO api_keys (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        key.id.databaseValue, key.name.databaseValue, Data(key.secretHash).databaseValue,
                        key.scopes.joined(separator: " ").databaseValue, key.createdAt.databaseValue, key.revokedAt.databaseValue,
                    ])
                if let announcement { try db.run(announcement, []) }
            }
        }
    }

    public func key(id: String) throws(StoreError) -> APIKeyRecord? {
        return try StoreError.catching {
            return try database.reading { db in try Self.records(db, "SELECT \(Self.columns) FROM api_keys WHERE id = ?", [id.databaseValue]).first }
        }
    }

    /// `key(id:)` through a cache that any commit to the file empties (`KeyCache`): what the
    /// server asks per request.
    public func current(id: String) throws(StoreError) -> APIKeyRecord? {
        guard let cache else { return try key(id: id) }
        return try cache.key(id: id) { id throws(StoreError) in try key(id: id) }
    }

    public func all() throws(StoreError) -> [APIKeyRecord] {
        return try StoreError.catching {
            return try database.reading { db in try Self.records(db, "SELECT \(Self.columns) FROM api_keys ORDER BY created_at, id", []) }
        }
    }

    public func revoke(id: String, at time: Int64) throws(StoreError) -> Bool {
        return try StoreError.catching {
            return try database.writing { db in
                let revoked =
                    try db.run("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [time.databaseValue, id.databaseValue]) > 0
                if revoked, let announcement { try db.run(announcement, []) }
                return revoked
            }
        }
    }

    private static func records(_ db: any SQLConnection, _ sql: String, _ arguments: [DatabaseValue]) throws -> [APIKeyRecord] {
        try db.all(sql, arguments) { row in
            APIKeyRecord(
                id: row.text(0) ?? "", name: row.text(1) ?? "", secretHash: row.bytes(2) ?? [],
                scopes: (row.text(3) ?? "").split(separator: " ").map(String.init), createdAt: row.integer(4) ?? 0, revokedAt: row.integer(5))
        }
    }
}
