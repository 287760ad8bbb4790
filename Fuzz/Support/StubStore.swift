import Domain
import Storage

/// A store that answers nothing: the routes need one to exist, the router never calls it.
public struct StubStore: ItemStore {
    public init() {}

    public func item(_ collection: StoredCollection, id: EntityID) throws(StoreError) -> Versioned<StoredItem>? { nil }
    public func page(_ query: ListQuery) throws(StoreError) -> Page { throw .unavailable("fuzzing") }
    public func version(of collection: StoredCollection) -> Int64 { 0 }
    public func changes(_ collection: StoredCollection, after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch {
        throw .unavailable("fuzzing")
    }
    public func latestSequence() -> Int64 { 0 }
    public func insert(_ item: StoredItem) async throws(StoreError) -> Versioned<StoredItem> { throw .unavailable("fuzzing") }
    public func update(_ item: StoredItem, ifVersion: Int64?) async throws(StoreError) -> Versioned<StoredItem> {
        throw .unavailable("fuzzing")
    }
    public func delete(_ collection: StoredCollection, id: EntityID, ifVersion: Int64?) async throws(StoreError) {
        throw .unavailable("fuzzing")
    }
    public func checkHealth() throws(StoreError) {}
}
