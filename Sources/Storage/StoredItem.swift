import Domain

/// One item of any collection, as the store keeps it: the full Domain model.
public enum StoredItem: Sendable, Hashable {
    case product(Product)
    case department(Department)
    case person(Person)
    case article(Article)
    case document(Document)
    case track(Track)
    case sample(AudioSample)

    public var id: EntityID {
        switch self {
        case .product(let item): item.id
        case .department(let item): item.id
        case .person(let item): item.id
        case .article(let item): item.id
        case .document(let item): item.id
        case .track(let item): item.id
        case .sample(let item): item.id
        }
    }

    public var collection: StoredCollection {
        switch self {
        case .product: .products
        case .department: .departments
        case .person: .people
        case .article: .articles
        case .document: .documents
        case .track: .tracks
        case .sample: .samples
        }
    }
}

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
