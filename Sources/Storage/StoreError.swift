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
    /// The database failed (503 for health, 500 elsewhere); `message` is for logs only.
    case unavailable(String)
}
