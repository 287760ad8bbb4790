/// The pure steps of keeping a list: joining pages, and applying a change by id. `RowList`
/// runs them; they are values in, values out, so they are tested as tables.
extension Page.Content {
    /// This content followed by the next page's. A section that continues on the next page
    /// (the same id first there) gets the rows in one section; a table keeps its columns.
    public func appending(_ next: Page.Content) -> Page.Content {
        switch (self, next) {
        case (.rows(let rows), .rows(let more)):
            return .rows(rows + more)
        case (.sections(var sections), .sections(var more)):
            if let last = sections.last, let first = more.first, last.id == first.id {
                sections[sections.count - 1].rows += first.rows
                more.removeFirst()
            }
            return .sections(sections + more)
        case (.table(var table), .table(let more)):
            table.rows += more.rows
            return .table(table)
        default:
            // The server answered another view for the same list: the newer page wins.
            return next
        }
    }

    /// The counts its sections carry, by id (a counted, sectioned list's).
    public var sectionCounts: [String: Total] {
        guard case .sections(let sections) = self else { return [:] }
        var counts: [String: Total] = [:]
        for section in sections { counts[section.id] = section.count ?? counts[section.id] }
        return counts
    }

    /// The ids of the rows, in order.
    public var ids: [String] {
        switch self {
        case .rows(let rows): rows.map(\.id)
        case .sections(let sections): sections.flatMap { $0.rows.map(\.id) }
        case .table(let table): table.rows.map(\.id)
        }
    }

    /// The last row's id; nil when there is no row.
    public var lastID: String? {
        switch self {
        case .rows(let rows): rows.last?.id
        case .sections(let sections): sections.last?.rows.last?.id
        case .table(let table): table.rows.last?.id
        }
    }

    /// How many rows, whatever the view (counted, not listed).
    public var rowCount: Int {
        switch self {
        case .rows(let rows): rows.count
        case .sections(let sections): sections.reduce(0) { $0 + $1.rows.count }
        case .table(let table): table.rows.count
        }
    }

    /// Removes the row with `id`, and a section it leaves empty; false when it is not shown.
    @discardableResult
    public mutating func remove(id: String) -> Bool {
        switch self {
        case .rows(var rows):
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return false }
            rows.remove(at: index)
            self = .rows(rows)
        case .sections(var sections):
            guard case (let section, let index)? = Self.locate(id, in: sections) else { return false }
            sections[section].rows.remove(at: index)
            if sections[section].rows.isEmpty { sections.remove(at: section) }
            self = .sections(sections)
        case .table(var table):
            guard let index = table.rows.firstIndex(where: { $0.id == id }) else { return false }
            table.rows.remove(at: index)
            self = .table(table)
        }
        return true
    }

    /// Puts an upsert's new state where the row is shown: the text in place, and in sections,
    /// the row moved to the section the change names (at that section's end, or in a new section
    /// at the end of the list). False when the row is not shown, or the change lacks what this
    /// view needs (the cells of a table row): the caller reloads to place it.
    @discardableResult
    public mutating func update(with change: Change) -> Bool {
        guard change.op == .upsert, let row = change.row else { return false }
        switch self {
        case .rows(var rows):
            guard let index = rows.firstIndex(where: { $0.id == change.id }) else { return false }
            rows[index] = row
            self = .rows(rows)
        case .sections(var sections):
            guard case (let section, let index)? = Self.locate(change.id, in: sections) else { return false }
            guard let target = change.section, target.id != sections[section].id else {
                sections[section].rows[index] = row
                self = .sections(sections)
                return true
            }
            sections[section].rows.remove(at: index)
            if sections[section].rows.isEmpty { sections.remove(at: section) }
            if let destination = sections.firstIndex(where: { $0.id == target.id }) {
                sections[destination].rows.append(row)
            } else {
                sections.append(Section(id: target.id, header: target.header, rows: [row]))
            }
            self = .sections(sections)
        case .table(var table):
            guard let index = table.rows.firstIndex(where: { $0.id == change.id }), let tableRow = change.tableRow else { return false }
            table.rows[index] = tableRow
            self = .table(table)
        }
        return true
    }

    private static func locate(_ id: String, in sections: [Section]) -> (Int, Int)? {
        for (sectionIndex, section) in sections.enumerated() {
            if let index = section.rows.firstIndex(where: { $0.id == id }) { return (sectionIndex, index) }
        }
        return nil
    }
}

extension Change {
    /// One change per id, the last, in the order the ids last changed: what a list applies.
    public static func latestByID(_ changes: [Change]) -> [Change] {
        var latest: [String: Int] = [:]
        for (index, change) in changes.enumerated() { latest[change.id] = index }
        return changes.enumerated().filter { latest[$0.element.id] == $0.offset }.map(\.element)
    }
}
