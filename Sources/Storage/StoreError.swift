import Domain

/// Why a store operation failed. The API turns each into its HTTP status.
public enum StoreError: Error, Sendable, Equatable {
    /// No item with this id in the collection of this name (404).
    case missing(collection: String, EntityID)
    /// `If-Match` named another version than the current one (412); nothing changed.
    case versionMismatch(current: Int64)
    /// A reference to an item that does not exist (e.g. an unknown department id): 422 on `field`.
    case invalidReference(field: String, id: EntityID)
    /// The item is still referenced (deleting a department that has people): 409.
    case stillReferenced(String)
    /// `after` is older than the retained change history (410).
    case changesExpired(oldestRetained: Int64)
    /// The database was made for another definition and cannot follow this one without losing
    /// data; `message` names the change and what to do. The store does not open.
    case incompatibleDefinition(String)
    /// The store cannot answer now (it is closing, its writer stopped): 503. `message` is for logs only.
    case unavailable(String)
    /// SQLite failed with this extended result code (`SQLITE_BUSY` 5, `SQLITE_CORRUPT` 11, …):
    /// a busy, locked, full or unreadable database is 503 (it may pass), anything else 500.
    /// `message` is for logs only.
    case database(resultCode: Int32, message: String)
    /// What cannot happen did: a stored value that does not fit its column, a query the API
    /// should have refused (500, a bug to fix). `message` is for logs only.
    case invariant(String)
}

extension StoreError {
    /// Primary SQLite result codes that describe the moment, not the data or the code:
    /// BUSY, LOCKED, NOMEM, READONLY, INTERRUPT, IOERR, FULL, CANTOPEN, PROTOCOL.
    static let transientResultCodes: Set<Int32> = [5, 6, 7, 8, 9, 10, 13, 14, 15]

    /// Whether trying again later may succeed (a 503 rather than a 500).
    public var isTransient: Bool {
        switch self {
        case .unavailable: true
        case .database(let code, _): Self.transientResultCodes.contains(code & 0xFF)
        default: false
        }
    }
}
