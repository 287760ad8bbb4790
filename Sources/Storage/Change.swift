import Domain

/// One committed write, from the change log.
public struct Change: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable, Codable {
        case insert, update, delete
    }

    /// Position in the store-wide change log; strictly increasing in commit order.
    public var sequence: Int64
    public var collection: StoredCollection
    public var id: EntityID
    public var operation: Operation
    /// The item as it is now, for inserts and updates still present; nil for deletes and for
    /// items deleted since.
    public var item: Versioned<StoredItem>?

    public init(sequence: Int64, collection: StoredCollection, id: EntityID, operation: Operation, item: Versioned<StoredItem>?) {
        self.sequence = sequence
        self.collection = collection
        self.id = id
        self.operation = operation
        self.item = item
    }
}

/// The changes of one collection after a sequence number.
public struct ChangeBatch: Sendable {
    public var changes: [Change]
    /// True when more changes follow the last one returned.
    public var hasMore: Bool
    /// The sequence to resume from: the last change returned, or the request's own when none.
    public var resumeAfter: Int64

    public init(changes: [Change], hasMore: Bool, resumeAfter: Int64) {
        self.changes = changes
        self.hasMore = hasMore
        self.resumeAfter = resumeAfter
    }
}
