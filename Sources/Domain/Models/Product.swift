/// A product in the catalogue, with the full payload the detail endpoint returns.
///
/// Its list row shows only name, short description and price (see `Product.row(in:)`).
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
