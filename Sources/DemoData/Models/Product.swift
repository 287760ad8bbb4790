import Domain

/// A product of the demo's catalogue (`products`), with the full payload the detail endpoint returns.
public struct Product: Identifiable, Hashable, Sendable, Codable {
    /// Assigned once by the server; never changes when the product is edited.
    public let id: EntityID
    public var name: String
    public var shortDescription: String
    public var longDescription: String
    public var price: Money

    public init(id: EntityID, name: String, shortDescription: String, longDescription: String, price: Money) {
        self.id = id
        self.name = name
        self.shortDescription = shortDescription
        self.longDescription = longDescription
        self.price = price
    }
}
