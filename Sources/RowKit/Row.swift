/// One render row, as the server made it: the app shows it and follows `detail`; it never builds
/// a URL or maps the row back to a model.
public struct Row: Codable, Hashable, Identifiable, Sendable {
    /// Stable across edits: the item's id.
    public var id: String
    public var title: String
    public var subtitle: String?
    /// Preformatted in the list's locale (a price, a date, a count).
    public var trailing: String?
    /// An SF Symbols name or an image link, as the definition says.
    public var image: String?
    /// The link of the item's detail.
    public var detail: String
    /// An outline's row (`tree` in its definition): how many children it has; nil for any other row.
    public var childCount: Int?
    /// An outline's row: the link of its children's list, a whole list as any other.
    public var children: String?

    public init(
        id: String, title: String, subtitle: String? = nil, trailing: String? = nil, image: String? = nil, detail: String, childCount: Int? = nil,
        children: String? = nil
    ) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.image = image
        self.detail = detail
        self.childCount = childCount
        self.children = children
    }
}

/// What a list shows when it has no rows (seed 003): a title, a line of description and a symbol.
public struct EmptyState: Codable, Hashable, Sendable {
    public var title: String
    public var description: String
    /// An SF Symbols name.
    public var image: String

    public init(title: String, description: String, image: String) {
        self.title = title
        self.description = description
        self.image = image
    }
}
