/// One answer of a collection's change feed: what changed after a token, in commit order, one
/// entry per item in its last state.
public struct ChangeFeed: Decodable, Hashable, Sendable {
    public struct Links: Codable, Hashable, Sendable {
        /// The link that reads on from this answer.
        public var next: String
    }

    public var changes: [Change]
    /// The token to resume from (already inside `links.next`).
    public var next: String
    /// More changes follow at once: read `links.next` again.
    public var more: Bool
    public var links: Links
}

/// A change to one item of a list: it was created or edited (upsert, with everything needed to
/// show it in any view of the list), or it was deleted.
public struct Change: Decodable, Hashable, Sendable {
    public enum Operation: String, Codable, Hashable, Sendable {
        case upsert, delete
    }

    public var op: Operation
    public var id: String
    /// The item's row; nil for a delete.
    public var row: Row?
    /// The section the row belongs in, when the list has sections.
    public var section: SectionReference?
    /// The table cells, when the list has a table.
    public var cells: [String: String?]?
    public var compact: CompactRow?

    public init(
        op: Operation, id: String, row: Row? = nil, section: SectionReference? = nil, cells: [String: String?]? = nil, compact: CompactRow? = nil
    ) {
        self.op = op
        self.id = id
        self.row = row
        self.section = section
        self.cells = cells
        self.compact = compact
    }

    /// The row as a table row, when the change carries cells.
    public var tableRow: TableRow? {
        guard let row, let cells, let compact else { return nil }
        return TableRow(id: id, cells: cells, compact: compact, detail: row.detail)
    }
}
