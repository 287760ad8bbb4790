/// The pure render state of one list row: what the row shows, and the id that keeps it stable.
///
/// Rows carry no behaviour and no navigation (the API layer attaches the detail link), so they
/// compare as data. The JSON shape is constant: absent values encode as `null`, never as a
/// missing key, so clients can bind fields without checking for their presence.
public struct RenderRow: Hashable, Sendable, Codable {
    /// The model's id, which is also the row's list identity.
    public var id: EntityID
    public var title: String
    public var subtitle: String?
    /// Right-aligned accessory text, e.g. a formatted price.
    public var trailing: String?
    /// An SF Symbols name as a hint to the client, e.g. `phone`.
    public var image: String?

    public init(id: EntityID, title: String, subtitle: String? = nil, trailing: String? = nil, image: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.image = image
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, subtitle, trailing, image
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
        try container.encode(trailing, forKey: .trailing)
        try container.encode(image, forKey: .image)
    }
}
