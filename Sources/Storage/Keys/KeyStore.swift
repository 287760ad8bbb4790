import Foundation
import GRDB

/// The API keys of a database file, in its `api_keys` table: what `rowserver keys` writes and
/// the server reads per request that carries a key.
///
/// A command opens the file on its own, without the collections (`keys create` on a new file
/// makes only this table, and a server started on that file later still fills it with its
/// data); a server reads keys through its catalog store's connections (`CatalogStore.keys`).
public final class KeyStore: Sendable {
    private let pool: DatabasePool
    private let cache: KeyCache

    /// Keys through connections the caller opened, and already made the table in.
    init(pool: DatabasePool) {
        self.pool = pool
        self.cache = KeyCache(databasePath: pool.path)
    }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS api_keys (
            id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_hash BLOB NOT NULL, scopes TEXT NOT NULL,
            created_at INTEGER NOT NULL, revoked_at INTEGER) WITHOUT ROWID
        """

    public init(path: String, busyTimeout: Double = 5) throws(StoreError) {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            cache = KeyCache(databasePath: pool.path)
            try pool.write { db in try db.execute(sql: Self.createTable) }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Adds a key; `id` must be new.
    public func add(_ key: APIKeyRecord) throws(StoreError) {
        do {
            try pool.write { db in
                try db.execute(
                    sql: "INSERT INTO api_keys (id, name, secret_hash, scopes, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [key.id, key.name, Data(key.secretHash), key.scopes.joined(separator: " "), key.createdAt, key.revokedAt])
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// The key with this id, revoked or not; nil when there is none.
    public func key(id: String) throws(StoreError) -> APIKeyRecord? {
        do {
            return try pool.unsafeRead { db in
                try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM api_keys WHERE id = ?"), arguments: [id]).map(Self.record)
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// `key(id:)` through a cache that any commit to the file empties (`KeyCache`): what the
    /// server asks per request.
    public func current(id: String) throws(StoreError) -> APIKeyRecord? {
        try cache.key(id: id) { id throws(StoreError) in try key(id: id) }
    }

    /// Every key, oldest first.
    public func all() throws(StoreError) -> [APIKeyRecord] {
        do {
            return try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM api_keys ORDER BY created_at, id").map(Self.record) }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Revokes a key at `time`; false when there is no such key or it was revoked already.
    public func revoke(id: String, at time: Int64) throws(StoreError) -> Bool {
        do {
            return try pool.write { db in
                try db.execute(sql: "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [time, id])
                return db.changesCount > 0
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    private static func record(_ row: Row) -> APIKeyRecord {
        let hash: Data = row["secret_hash"] ?? Data()
        let scopes: String = row["scopes"] ?? ""
        return APIKeyRecord(
            id: row["id"] ?? "", name: row["name"] ?? "", secretHash: Array(hash), scopes: scopes.split(separator: " ").map(String.init),
            createdAt: row["created_at"] ?? 0, revokedAt: row["revoked_at"])
    }
}
