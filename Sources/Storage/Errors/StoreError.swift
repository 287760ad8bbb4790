import Domain

/// Why a store operation failed. The API turns each into its HTTP status.
public enum StoreError: Error, Sendable, Equatable {
    /// No item with this id in the collection of this name (404).
    case missing(collection: String, EntityID)
    /// `If-Match` named another version than the current one (412); nothing changed.
    case versionMismatch(current: Int64)
    /// A reference to an item that does not exist (e.g. an unknown department id): 422 on `field`.
    case invalidReference(field: String, id: EntityID)
    /// A change of an outline node's parent would make the node its own ancestor (its parent
    /// itself, or one of its descendants): 422 on `field`, nothing written.
    case treeCycle(field: String)
    /// A node's new parent has more than `depth` ancestors (or a cycle already in the data): 422.
    case treeTooDeep(field: String, depth: Int)
    /// The item is still referenced (deleting a department that has people): 409.
    case stillReferenced(String)
    /// `after` is older than the retained change history (410).
    case changesExpired(oldestRetained: Int64)
    /// The database was made for another definition and cannot follow this one without losing
    /// data; `message` names the change and what to do. The store does not open.
    case incompatibleDefinition(String)
    /// The store cannot answer now (it is closing, its writer stopped): 503. `message` is for logs only.
    case unavailable(String)
    /// SQLite failed, with its extended result code (`SQLiteFailure`): a busy, locked, full or
    /// unreadable database is 503 (it may pass), anything else 500.
    case sqlite(SQLiteFailure)
    /// PostgreSQL (or libpq) failed, with the server's SQLSTATE (`PostgresFailure`): a failure of
    /// the moment (a lost connection, a shutdown, a serialization failure) is 503, anything else 500.
    case postgres(PostgresFailure)
    /// What cannot happen did: a stored value that does not fit its column, a query the API
    /// should have refused (500, a bug to fix). `message` is for logs only.
    case invariant(String)
    /// An operation of a group of writes (`ItemStore.applyTogether`) failed with `failure`: the
    /// group wrote nothing. `operation`: its index in the group.
    indirect case inGroup(operation: Int, StoreError)
}

extension StoreError {
    /// Whether trying again later may succeed (a 503 rather than a 500): each engine says of its own codes.
    public var isTransient: Bool {
        switch self {
        case .unavailable: true
        case .sqlite(let failure): failure.isTransient
        case .postgres(let failure): failure.isTransient
        case .inGroup(_, let failure): failure.isTransient
        default: false
        }
    }
}
