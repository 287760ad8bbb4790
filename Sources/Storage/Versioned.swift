/// An item with its version: the change-log sequence number of its last write. The detail's
/// ETag is made from it, and `If-Match` compares against it.
public struct Versioned<Item: Sendable & Hashable>: Sendable, Hashable {
    public var item: Item
    public var version: Int64

    public init(item: Item, version: Int64) {
        self.item = item
        self.version = version
    }
}

/// One value of a keyset position: a sort key's value for the last row of a page.
public enum SortValue: Sendable, Hashable, Codable {
    case text(String)
    case integer(Int64)
}

/// What a change-log entry records.
public enum ChangeOperation: String, Sendable, Hashable, Codable {
    case insert, update, delete
}
