/// A section of a grouped list: its rows share the header. A section that continues on the next
/// page comes again at that page's start with the same id; `RowList` joins the two.
public struct Section: Codable, Hashable, Identifiable, Sendable {
    public var id: String
    public var header: String
    /// The link of the item the section stands for (the referenced item it groups by), when it has one.
    public var detail: String?
    /// The section's rows in the whole list (not on the page), when the list is counted; as of
    /// the page's read (`RowListSnapshot.sectionCounts` follows the feed).
    public var count: Total?
    public var rows: [Row]

    public init(id: String, header: String, detail: String? = nil, count: Total? = nil, rows: [Row]) {
        self.id = id
        self.header = header
        self.detail = detail
        self.count = count
        self.rows = rows
    }
}

/// The section a change puts its row in.
public struct SectionReference: Codable, Hashable, Sendable {
    public var id: String
    public var header: String
    /// As `Section.detail`.
    public var detail: String?

    public init(id: String, header: String, detail: String? = nil) {
        self.id = id
        self.header = header
        self.detail = detail
    }
}
