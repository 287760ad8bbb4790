/// One row of a table: preformatted cell text in column order, plus a compact summary.
///
/// Every column of the table has a cell in every row (constant shape), in the order of
/// `ItemRenderer.tableColumns`; a value that cannot be shown is `Unavailable.text` rather than a
/// missing cell. Cells are a list, not a dictionary: a row is written in column order, and a
/// page of them should not hash every column id of every row.
public struct TableRow: Identifiable, Hashable, Sendable, Codable {
    public var id: EntityID
    public var cells: [TableCell]
    public var compact: CompactSummary

    public init(id: EntityID, cells: [TableCell], compact: CompactSummary) {
        self.id = id
        self.cells = cells
        self.compact = compact
    }

    /// Cells written as `[column: text]`, kept in the order written.
    public init(id: EntityID, cells: KeyValuePairs<String, String>, compact: CompactSummary) {
        self.init(id: id, cells: cells.map { TableCell(column: $0.key, text: $0.value) }, compact: compact)
    }

    /// The text of the cell in `column`; nil when the table has no such column.
    public subscript(column: String) -> String? {
        cells.first { $0.column == column }?.text
    }
}

/// One cell of a ``TableRow``: its column's id and its text.
public struct TableCell: Hashable, Sendable, Codable {
    public var column: String
    public var text: String

    public init(column: String, text: String) {
        self.column = column
        self.text = text
    }
}
