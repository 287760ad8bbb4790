/// A multi-column table: column descriptors and rows of preformatted cells.
///
/// Sorting is the server's job (the seed's table does not sort itself); the API re-queries with
/// a sortable column's id. Columns may be decided at runtime, as for a track's channels.
public struct RenderTable: Hashable, Sendable, Codable {
    public var columns: [TableColumn]
    public var rows: [TableRow]

    public init(columns: [TableColumn], rows: [TableRow]) {
        self.columns = columns
        self.rows = rows
    }
}
