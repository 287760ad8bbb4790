/// The API keys of a store: SQLite's `KeyStore`, or PostgreSQL's.
public protocol KeyRecords: Sendable {
    /// Adds a key (its secret already hashed).
    func add(_ key: APIKeyRecord) throws(StoreError)
    /// The key with this id, revoked or not; nil when there is none.
    func key(id: String) throws(StoreError) -> APIKeyRecord?
    /// `key(id:)` as of the newest commit, possibly from a cache: what the server asks per request.
    func current(id: String) throws(StoreError) -> APIKeyRecord?
    /// Every key, oldest first.
    func all() throws(StoreError) -> [APIKeyRecord]
    /// Revokes a key at `time`; false when there is no such key or it was revoked already.
    func revoke(id: String, at time: Int64) throws(StoreError) -> Bool
}

extension KeyStore: KeyRecords {}
