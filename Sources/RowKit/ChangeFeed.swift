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
    /// Changes when an item the list's rows show through a reference changes: the rows that
    /// show it are not in the feed, so the list is read again. Nil from a server that does not say.
    public var referencesVersion: String?
    public var links: Links
    /// The list's total after these changes, when the list is counted.
    public var total: Total?
    /// A counted, sectioned list's sections with their counts: every section when the list is
    /// within the count's bound (one missing has no rows); empty past it.
    public var sections: [SectionCount]?
}

/// A change to one row of a list: it was created or edited (upsert, with everything needed to
/// show it in any view of the list and where it now stands), or it left the list (delete: the
/// item was deleted, or a filter or the search of the list no longer holds).
public struct Change: Decodable, Hashable, Sendable {
    public enum Operation: String, Codable, Hashable, Sendable {
        case upsert, delete
    }

    /// Where an upserted row now stands in the feed's list.
    public enum Placement: Hashable, Sendable {
        /// The list's first row.
        case first
        /// Just after the row with this id.
        case after(String)
    }

    public var op: Operation
    public var id: String
    /// Where the row now stands; nil for a delete, and from a server whose feed does not say.
    public var placement: Placement?
    /// The item's row; nil for a delete.
    public var row: Row?
    /// The section the row belongs in, when the list has sections.
    public var section: SectionReference?
    /// The table cells, when the list has a table.
    public var cells: [String: String?]?
    public var compact: CompactRow?

    public init(
        op: Operation, id: String, placement: Placement? = nil, row: Row? = nil, section: SectionReference? = nil, cells: [String: String?]? = nil,
        compact: CompactRow? = nil
    ) {
        self.op = op
        self.id = id
        self.placement = placement
        self.row = row
        self.section = section
        self.cells = cells
        self.compact = compact
    }

    private enum CodingKeys: String, CodingKey {
        case op, id, after, row, section, cells, compact
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        op = try container.decode(Operation.self, forKey: .op)
        id = try container.decode(String.self, forKey: .id)
        // `after: null` is "first"; no `after` at all is a feed that does not place rows.
        if container.contains(.after) {
            placement = try container.decodeIfPresent(String.self, forKey: .after).map(Placement.after) ?? .first
        }
        row = try container.decodeIfPresent(Row.self, forKey: .row)
        section = try container.decodeIfPresent(SectionReference.self, forKey: .section)
        cells = try container.decodeIfPresent([String: String?].self, forKey: .cells)
        compact = try container.decodeIfPresent(CompactRow.self, forKey: .compact)
    }

    /// The row as a table row, when the change carries cells.
    public var tableRow: TableRow? {
        guard let row, let cells, let compact else { return nil }
        return TableRow(id: id, cells: cells, compact: compact, detail: row.detail)
    }
}
