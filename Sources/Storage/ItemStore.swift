import Domain

/// Everything the API needs from a database, narrow enough for a PostgreSQL implementation
/// (several rowserver instances sharing one database) to be added without touching the API.
///
/// Reads are synchronous and fast (an index seek); they run on the HTTP thread. Writes are
/// `async`: they return once their transaction committed durably, and a group-committing
/// store answers many concurrent writes with one commit.
public protocol ItemStore: Sendable {
    /// One item by id, with its version.
    func item(_ collection: StoredCollection, id: EntityID) throws(StoreError) -> Versioned<StoredItem>?

    /// A page in keyset order: never OFFSET, cost independent of depth.
    func page(_ query: ListQuery) throws(StoreError) -> Page

    /// The collection's version: the sequence of its last committed change (0 when none).
    /// Cheap (no query): list ETags are made from it.
    func version(of collection: StoredCollection) -> Int64

    /// Changes of `collection` committed after `sequence`, in commit order, at most `limit`.
    /// Throws `.changesExpired` when `sequence` is older than the retained history.
    func changes(_ collection: StoredCollection, after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch

    /// The newest sequence in the change log (a "from now" token).
    func latestSequence() -> Int64

    /// Inserts a new item (its id already assigned); returns it with its version.
    func insert(_ item: StoredItem) async throws(StoreError) -> Versioned<StoredItem>

    /// Replaces an existing item; with `ifVersion`, only when its version is still that one.
    func update(_ item: StoredItem, ifVersion: Int64?) async throws(StoreError) -> Versioned<StoredItem>

    /// Deletes an item; with `ifVersion`, only when its version is still that one.
    func delete(_ collection: StoredCollection, id: EntityID, ifVersion: Int64?) async throws(StoreError)

    /// A trivial query; throws when the database cannot answer.
    func checkHealth() throws(StoreError)
}
