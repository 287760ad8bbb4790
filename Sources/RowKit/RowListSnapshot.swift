/// What a list shows at one moment: the rows loaded so far in the server's order, its empty
/// state, and whether more pages follow. Values: compare them, keep them, diff them.
public struct RowListSnapshot: Hashable, Sendable {
    /// Nil until the first page arrived.
    public var content: Page.Content?
    /// What to show instead of rows when the list has none.
    public var empty: EmptyState?
    /// A next page exists (`RowList.loadMore()`).
    public var hasMore: Bool
    /// The rows start past the list's first: a page before them exists (`RowList.loadPrevious()`),
    /// for a list opened around a row or at a letter.
    public var hasPrevious = false
    /// How many rows the whole list holds, when it is counted: from its first page, then from
    /// each feed read.
    public var total: Total?
    /// Each section's rows in the whole list, by section id, when the list is counted: from the
    /// pages' sections, then from each feed read (a section the feed no longer names is gone).
    public var sectionCounts: [String: Total]

    public init(
        content: Page.Content? = nil, empty: EmptyState? = nil, hasMore: Bool = false, total: Total? = nil, sectionCounts: [String: Total] = [:]
    ) {
        self.content = content
        self.empty = empty
        self.hasMore = hasMore
        self.total = total
        self.sectionCounts = sectionCounts
    }

    public var isLoaded: Bool { content != nil }

    /// Every row loaded, whatever the view: a table's rows as their compact form.
    public var rows: [Row] {
        switch content {
        case .rows(let rows): rows
        case .sections(let sections): sections.flatMap(\.rows)
        case .table(let table): table.rows.map { Row(id: $0.id, title: $0.compact.title, subtitle: $0.compact.subtitle, detail: $0.detail) }
        case nil: []
        }
    }

    /// The sections of a grouped list; empty for the other views.
    public var sections: [Section] {
        guard case .sections(let sections) = content else { return [] }
        return sections
    }

    /// The table of a table view; nil for the other views.
    public var table: Table? {
        guard case .table(let table) = content else { return nil }
        return table
    }
}
