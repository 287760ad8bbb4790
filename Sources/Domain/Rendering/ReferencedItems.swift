/// The items a page's references point to, by id: what rows, cells and section headers show of
/// them (their titles, a track's channel names). Ids carry their collection's prefix, so one
/// table serves every reference field.
public struct ReferencedItems: Sendable {
    private var items: [EntityID: Item]

    public init(_ items: [Item] = []) {
        self.items = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public static let none = ReferencedItems()

    public subscript(id: EntityID) -> Item? { items[id] }

    public mutating func insert(_ item: Item) { items[item.id] = item }
}
