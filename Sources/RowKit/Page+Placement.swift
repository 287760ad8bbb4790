/// Where the next page of a partly shown list continues, relative to the rows shown.
public enum PageBoundary: Hashable, Sendable {
    /// Right after this row: the last row read, unchanged since.
    case after(String)
    /// After this row, and before every row not shown: the rows read after it changed or left,
    /// so a row the feed puts right after this one may fall on either side.
    case beyond(String)
}

/// Placing a feed's rows where the server says they now stand, with no page read.
extension Page.Content {
    /// This content with `changes` (one per id, as `Change.latestByID` gives them, read in one
    /// feed answer so their placements describe one state) applied: rows that left the list
    /// removed, new and edited rows put after the row the server names. Nil when that cannot be
    /// done exactly; the caller reads the list again.
    ///
    /// The content is the list's first rows. When rows follow (`hasMore`), `boundary` says where
    /// the next page continues: a row placed past it, or after a row not shown, is left to the
    /// next page. A row placed where the boundary is vague, or any row with no boundary known,
    /// cannot be placed. The result carries the boundary after the changes.
    ///
    /// `hasPrevious`: the content starts past the list's first row (a list opened around a row
    /// or at a letter, `RowList.loadPrevious()`). A row placed first, or after a row not shown,
    /// then stands before the shown rows or past them: it is left out.
    public func placing(
        _ changes: [Change], hasMore: Bool, hasPrevious: Bool = false, boundary: PageBoundary?
    ) -> (content: Page.Content, boundary: PageBoundary?)? {
        let placing = Placing(changes: changes, hasMore: hasMore, hasPrevious: hasPrevious, boundary: boundary)
        switch self {
        case .rows(let rows):
            return placing.place(rows, id: \.id, make: { $0.row }).map { (.rows($0.elements), $0.boundary) }
        case .sections(let sections):
            let entries = sections.flatMap { section in
                section.rows.map { (section: SectionReference(id: section.id, header: section.header, detail: section.detail), row: $0) }
            }
            let placed = placing.place(entries, id: \.row.id) { change in
                guard let section = change.section, let row = change.row else { return nil }
                return (section, row)
            }
            return placed.map { (.sections(Self.grouped($0.elements)), $0.boundary) }
        case .table(var table):
            guard let placed = placing.place(table.rows, id: \.id, make: { $0.tableRow }) else { return nil }
            table.rows = placed.elements
            return (.table(table), placed.boundary)
        }
    }

    /// Consecutive rows of one section make a section (the server orders a grouped list by section first).
    private static func grouped(_ entries: [(section: SectionReference, row: Row)]) -> [Section] {
        var sections: [Section] = []
        for entry in entries {
            if let last = sections.last, last.id == entry.section.id {
                sections[sections.count - 1].rows.append(entry.row)
            } else {
                sections.append(Section(id: entry.section.id, header: entry.section.header, detail: entry.section.detail, rows: [entry.row]))
            }
        }
        return sections
    }
}

/// The placing of one feed answer's changes in a list of elements (rows, table rows, or rows
/// with their section).
private struct Placing {
    let changes: [Change]
    let hasMore: Bool
    let hasPrevious: Bool
    let boundary: PageBoundary?

    func place<Element>(_ elements: [Element], id: (Element) -> String, make: (Change) -> Element?) -> (elements: [Element], boundary: PageBoundary?)?
    {
        let changed = Set(changes.map(\.id))
        var elements = elements.filter { !changed.contains(id($0)) }
        var pending: [(placement: Change.Placement, element: Element)] = []
        for change in changes where change.op == .upsert {
            guard let placement = change.placement, let element = make(change) else { return nil }
            pending.append((placement, element))
        }
        // Where the next page continues: right after `exact`, or somewhere after `vague`.
        var exact: String?
        var vague: String?
        if hasMore {
            if case .after(let last)? = boundary, !changed.contains(last) {
                exact = last
            } else if boundary != nil, let last = elements.last {
                vague = id(last)
            } else if !pending.isEmpty {
                return nil
            }
        }
        // A row can stand after another changed row: place rows until no more find their place.
        var placedAny = true
        while placedAny && !pending.isEmpty {
            placedAny = false
            var waiting: [(placement: Change.Placement, element: Element)] = []
            for entry in pending {
                switch entry.placement {
                case .first:
                    // Before the shown rows when they start past the list's first.
                    if !hasPrevious { elements.insert(entry.element, at: 0) }
                    placedAny = true
                case .after(let previous) where previous == exact:
                    // Just past the last row read: the next page brings it.
                    placedAny = true
                case .after(let previous) where previous == vague:
                    return nil
                case .after(let previous):
                    guard let index = elements.firstIndex(where: { id($0) == previous }) else {
                        waiting.append(entry)
                        continue
                    }
                    elements.insert(entry.element, at: index + 1)
                    placedAny = true
                }
            }
            pending = waiting
        }
        // Rows after rows not shown: past the shown rows when more follow, else a feed that
        // does not match what is shown.
        if !pending.isEmpty && !hasMore && !hasPrevious { return nil }
        guard hasMore, boundary != nil else { return (elements, nil) }
        if let exact { return (elements, .after(exact)) }
        return (elements, elements.last.map { .beyond(id($0)) })
    }
}
