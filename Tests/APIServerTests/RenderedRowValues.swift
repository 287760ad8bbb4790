import Domain

// Rows as values, for tests that compare what rows show as data. The server writes rows with
// `PlannedRowWriter` and no longer has these types; `RenderedRows.swift` reads its JSON back into them.

/// The pure render state of one list row: what the row shows, and the id that keeps it stable.
///
/// Rows carry no behaviour and no navigation (the API layer attaches the detail link), so they
/// compare as data. The JSON shape is constant: absent values encode as `null`, never as a
/// missing key, so clients can bind fields without checking for their presence.
struct RenderRow: Hashable, Sendable, Codable {
    /// The model's id, which is also the row's list identity.
    var id: EntityID
    var title: String
    var subtitle: String?
    /// Right-aligned accessory text, e.g. a formatted price.
    var trailing: String?
    /// An SF Symbols name as a hint to the client, e.g. `phone`.
    var image: String?

    init(id: EntityID, title: String, subtitle: String? = nil, trailing: String? = nil, image: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.trailing = trailing
        self.image = image
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, subtitle, trailing, image
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
        try container.encode(trailing, forKey: .trailing)
        try container.encode(image, forKey: .image)
    }
}

/// One row of a table: preformatted cell text in column order, plus a compact summary.
///
/// Every column of the table has a cell in every row (constant shape), in the order of
/// `ItemRenderer.tableColumns`; a value that cannot be shown is `Unavailable.text` rather than a
/// missing cell. Cells are a list, not a dictionary: a row is written in column order, and a
/// page of them should not hash every column id of every row.
struct TableRow: Identifiable, Hashable, Sendable, Codable {
    var id: EntityID
    var cells: [TableCell]
    var compact: CompactSummary

    init(id: EntityID, cells: [TableCell], compact: CompactSummary) {
        self.id = id
        self.cells = cells
        self.compact = compact
    }

    /// Cells written as `[column: text]`, kept in the order written.
    init(id: EntityID, cells: KeyValuePairs<String, String>, compact: CompactSummary) {
        self.init(id: id, cells: cells.map { TableCell(column: $0.key, text: $0.value) }, compact: compact)
    }

    /// The text of the cell in `column`; nil when the table has no such column.
    subscript(column: String) -> String? {
        cells.first { $0.column == column }?.text
    }
}

/// One cell of a ``TableRow``: its column's id and its text.
struct TableCell: Hashable, Sendable, Codable {
    var column: String
    var text: String
}

/// What a table row shows in a compact size class, where only the first column is visible.
///
/// The seed's adaptive table puts the combined information (full name over e-mail) into the
/// first column when compact; the server precomputes it so clients need not know which
/// columns to combine. `subtitle` encodes as `null` when absent, keeping the shape constant.
struct CompactSummary: Hashable, Sendable, Codable {
    var title: String
    var subtitle: String?

    init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }

    private enum CodingKeys: String, CodingKey { case title, subtitle }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(subtitle, forKey: .subtitle)
    }
}
