/// How a column's cells align: text leads, numbers align on their digits (SwiftUI's `.numeric`).
public enum ColumnAlignment: String, Hashable, Sendable, Codable {
    case leading
    case numeric
}

/// A table column as the client renders its header.
///
/// The id keys the cells of every table row and names the sort key the API accepts when
/// ``sortable`` is true. Titles are the seed's English titles; they are not localized.
public struct TableColumn: Identifiable, Hashable, Sendable, Codable {
    public var id: String
    public var title: String
    public var sortable: Bool
    public var alignment: ColumnAlignment

    public init(id: String, title: String, sortable: Bool, alignment: ColumnAlignment = .leading) {
        self.id = id
        self.title = title
        self.sortable = sortable
        self.alignment = alignment
    }
}
