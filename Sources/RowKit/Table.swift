/// A column of a table view: its title, alignment and, when it can be sorted, the link of the
/// list sorted by it in each direction.
public struct TableColumn: Codable, Hashable, Identifiable, Sendable {
    public enum Alignment: String, Codable, Hashable, Sendable {
        case leading
        /// Right-aligned, tabular figures.
        case numeric
    }

    public struct SortLinks: Codable, Hashable, Sendable {
        public var ascending: String
        public var descending: String

        public init(ascending: String, descending: String) {
            self.ascending = ascending
            self.descending = descending
        }
    }

    public var id: String
    public var title: String
    public var sortable: Bool
    public var alignment: Alignment
    public var links: SortLinks?

    public init(id: String, title: String, sortable: Bool = false, alignment: Alignment = .leading, links: SortLinks? = nil) {
        self.id = id
        self.title = title
        self.sortable = sortable
        self.alignment = alignment
        self.links = links
    }
}

/// How a table is sorted: a column and a direction.
public struct TableSort: Codable, Hashable, Sendable {
    public enum Order: String, Codable, Hashable, Sendable {
        case ascending, descending
    }

    public var column: String
    public var order: Order

    public init(column: String, order: Order) {
        self.column = column
        self.order = order
    }
}

/// The one-line form of a table row, for a narrow screen (seed 002's compact table).
public struct CompactRow: Codable, Hashable, Sendable {
    public var title: String
    public var subtitle: String?

    public init(title: String, subtitle: String? = nil) {
        self.title = title
        self.subtitle = subtitle
    }
}

/// A row of a table view: preformatted cells by column id.
public struct TableRow: Codable, Hashable, Identifiable, Sendable {
    public var id: String
    /// Cell text by column id; null where the item has no value.
    public var cells: [String: String?]
    public var compact: CompactRow
    public var detail: String

    public init(id: String, cells: [String: String?], compact: CompactRow, detail: String) {
        self.id = id
        self.cells = cells
        self.compact = compact
        self.detail = detail
    }

    /// The text of the cell in `column`, nil when empty or unknown.
    public subscript(column: String) -> String? { cells[column] ?? nil }
}

/// A table: its columns, sort order and the rows loaded so far.
public struct Table: Hashable, Sendable {
    public var columns: [TableColumn]
    public var sort: [TableSort]
    public var rows: [TableRow]

    public init(columns: [TableColumn], sort: [TableSort], rows: [TableRow]) {
        self.columns = columns
        self.sort = sort
        self.rows = rows
    }
}
