import Domain
import HTTPServer
import Storage

/// Turns a catalog page into the list body: rows, sections or a table, with the cursor and
/// links that continue it and the empty state when there is nothing to show.
struct CatalogPageRenderer {
    var shape: CatalogShape
    var context: RenderContext
    /// For a child list: the parent item (a track), whose names make `forEach` columns.
    var parentItem: Item?
    /// Where a filtered list's empty state reads the titles of the items its reference filters
    /// name (`{filters}`); without one, those filters show the ids.
    var store: (any ItemStore)?
    /// Counts the list once its page is read, given the sections the page showed (`PageEnd.sections`)
    /// and what it showed (`whole`: it is the list's last page): its `total` and each section's
    /// `count`. Nil: the page says no total.
    var counts: (([[SortValue]], PageProof) throws(StoreError) -> ListCounts?)?

    private var renderer: ItemRenderer { shape.collection.renderer }
    private var limit: Int { shape.parameters.limit }

    /// Writes a page read whole (its items and the items their references point to).
    /// `missing`: for a selection by id (`ids`), the ids it named that have no row in this list.
    func body(page: CatalogPage, links: PageLinks, missing: [EntityID]? = nil) throws(StoreError) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + page.items.count * 200)
        json.beginObject()
        var references = page.references
        if let parentItem { references.insert(parentItem) }
        var rows = open(references: references, into: &json)
        if shape.collection.definition.tree != nil {
            for entry in page.items { try rows.write(CountedItem(item: entry.item, childCount: page.childCounts[entry.item.id]), into: &json) }
        } else {
            for entry in page.items { try rows.write(entry.item, into: &json) }
        }
        rows.close(into: &json)
        let counted = try counts?(page.sections, Self.proof(rows: page.items.count, last: page.nextAfter == nil, rows.sections?.openings))
        if let missing {
            json.key("missing")
            json.beginArray()
            for id in missing { json.string(id.rawValue) }
            json.endArray()
        }
        // A selection shows what it found: no empty state, which describes a list.
        try writeEnd(isEmpty: page.items.isEmpty && missing == nil, links: links, total: counted?.total, store: store, into: &json)
        return json.bytes(inserting: Self.sectionCounts(counted, at: rows.sections?.openings))
    }

    /// What the page showed: its rows, per section too.
    private static func proof(rows: Int, last: Bool, _ openings: [(at: Int, id: String, rows: Int64)]?) -> PageProof {
        var sectionRows: [String: Int64] = [:]
        for opening in openings ?? [] { sectionRows[opening.id, default: 0] += opening.rows }
        return PageProof(rows: Int64(rows), whole: last, sectionRows: sectionRows)
    }

    /// Each shown section's `count`, where its object holds it.
    private static func sectionCounts(_ counts: ListCounts?, at openings: [(at: Int, id: String, rows: Int64)]?) -> [(at: Int, bytes: [UInt8])] {
        guard let counts, let openings else { return [] }
        return openings.compactMap { opening in
            guard let total = counts.sections[opening.id] else { return nil }
            var json = JSONWriter(capacity: 48)
            json.beginObject()
            json.key("count")
            RowWriter.total(total, into: &json)
            // The object's brace dropped: the count joins the section's object, before its rows.
            return (opening.at, [UInt8(ascii: ",")] + json.bytes.dropFirst())
        }
    }

    /// Whether `streamedBody` can write this page: rows, sections or a table whose rows show
    /// nothing of other items (a child list's parent aside, which the controller has read).
    var writesFromStore: Bool {
        switch shape.parameters.view {
        case .table: return renderer.tableRowPlan != nil && shape.collection.referenceFields(.table).isEmpty
        case .rows:
            guard shape.collection.referenceFields(.rows).isEmpty else { return false }
            return !shape.parameters.sections || renderer.sectionSlot != nil
        }
    }

    /// The stored slots the streamed rows read (the row or table plan's, and the section
    /// field's); nil when a row needs its whole item.
    private func reads(table: TableRowPlan?) -> [Int]? {
        guard var slots = table.map(\.slots) ?? renderer.rowPlan.slots else { return nil }
        if shape.parameters.sections, let slot = renderer.sectionSlot, !slots.contains(slot) {
            slots.append(slot)
            slots.sort()
        }
        return slots
    }

    /// Reads and writes the page at once, each row straight from the store's row; `links` makes
    /// the cursors and links from where the page began and ended.
    func streamedBody(
        _ query: CatalogQuery, store: any ItemStore, links: (_ nextAfter: [SortValue]?, _ firstAt: [SortValue]?) -> PageLinks
    ) throws(StoreError) -> (bytes: [UInt8], links: PageLinks) {
        var json = JSONWriter(capacity: 256 + limit * 200)
        json.beginObject()
        var references = ReferencedItems()
        if let parentItem { references.insert(parentItem) }
        var rows = open(references: references, into: &json)
        let start = json.mark()
        var query = query
        query.reads = reads(table: rows.table?.plan)
        var written = 0
        let end = try store.visitPage(
            query,
            restart: {
                json.rewind(to: start)
                rows.reset()
                written = 0
            },
            visit: { row throws(StoreError) in
                let before = json.count
                try rows.write(row, into: &json)
                written += 1
                // Room for a page of rows like the first and what follows them (the cursor and
                // the links) at once: a page of wide table rows otherwise doubled its buffer
                // twice, copying what it had each time. At most a MiB more, whatever the first
                // row's size.
                if written == 1 { json.reserveCapacity(json.count + min((json.count - before) * limit + 2_048, 1 << 20)) }
            })
        rows.close(into: &json)
        let counted = try counts?(end.sections, Self.proof(rows: end.count, last: end.nextAfter == nil, rows.sections?.openings))
        let pageLinks = links(end.nextAfter, end.firstAt)
        try writeEnd(isEmpty: end.count == 0, links: pageLinks, total: counted?.total, store: store, into: &json)
        return (json.bytes(inserting: Self.sectionCounts(counted, at: rows.sections?.openings)), pageLinks)
    }

    /// Writes what precedes the rows (a table's head) and opens them: `"rows": [` or `"sections": [`.
    private func open(references: ReferencedItems, into json: inout JSONWriter) -> PageRows {
        let rows = PlannedRowWriter(renderer: renderer, context: context, references: references, detailBase: detailBase)
        var table: TableCells?
        if shape.parameters.view == .table, let plan = renderer.tableRowPlan {
            let names = plan.hasForEach ? renderer.forEachNames(parent: parentItem) : []
            let key = TableHeadKey(parent: shape.parent, parameters: shape.parameters, locale: context.locale, names: names, level: shape.level)
            let head = shape.collection.tableHeads.value(for: key) {
                var head = JSONWriter(capacity: 1_024)
                writeTableHead(names: names, into: &head)
                let cells = names.isEmpty ? (shape.collection.tableCells ?? TableCells(plan: plan)) : TableCells(plan: plan, names: names)
                return TableHead(bytes: head.bytes, cells: cells)
            }
            json.raw(head.bytes)
            table = head.cells
        }
        var sections: PlannedSectionWriter?
        if table == nil, shape.parameters.sections, let slot = renderer.sectionSlot {
            let target = shape.collection.definition.sections.flatMap { renderer.target(ofField: $0.field)?.name }
            sections = PlannedSectionWriter(rows: rows, slot: slot, target: target, link: sectionLink)
            if counts != nil { sections?.openings = [] }
        }
        json.key(shape.parameters.sections ? "sections" : "rows")
        json.beginArray()
        return PageRows(rows: rows, table: table, sections: sections, sectioned: shape.parameters.sections)
    }

    /// What follows the rows: the cursor, the limit, the empty state and the links; closes the body.
    private func writeEnd(
        isEmpty: Bool, links: PageLinks, total: ListTotal?, store: (any ItemStore)?, into json: inout JSONWriter
    ) throws(StoreError) {
        json.key("next")
        json.stringOrNull(links.next)
        json.field("limit", limit)
        if let total {
            json.key("total")
            RowWriter.total(total, into: &json)
        }
        json.key("empty")
        RowWriter.emptyState(isEmpty ? try emptyState(store: store) : nil, into: &json)
        json.key("links")
        json.beginObject()
        json.field("self", selfLink)
        json.field("next", links.nextLink)
        json.field("prev", links.prevLink)
        json.field("first", links.firstLink)
        json.field("changes", shape.facts.changes)
        // The same link: the feed is a stream to a client that asks for `text/event-stream`.
        json.field("stream", shape.facts.changes)
        json.field("index", shape.facts.index)
        if shape.collection.definition.tree != nil { json.field("roots", CatalogLinks.list(shape.collection, parent: nil, level: .roots)) }
        json.endObject()
        json.endObject()
    }

    /// The link of this very page: the list's at its cursor, or opened around a row, or a selection by id.
    private var selfLink: String {
        let parameters = shape.parameters
        if let around = parameters.around { return shape.facts.link(adding: "around", around) }
        if let ids = parameters.ids { return shape.facts.link(adding: "ids", ids.map(\.rawValue).joined(separator: ",")) }
        return shape.facts.link(cursor: parameters.cursor)
    }

    /// What an empty list shows: the search's state (`{query}` replaced) when a search found
    /// nothing, with or without filters (the query is what the user typed, and a search's state
    /// says what to do about it); else the filtered state (`{filters}` replaced) when filters
    /// kept nothing; else the collection's own. A child list's parent is no filter.
    func emptyState(store: (any ItemStore)?) throws(StoreError) -> EmptyState {
        let definition = shape.collection.definition
        if let search = shape.parameters.search { return definition.searchEmpty.state(in: context.locale, query: search) }
        let filters = shape.parameters.filters
        guard !filters.isEmpty else { return definition.empty.state(in: context.locale) }
        // Read only for a page that came out empty: one read per reference a filter names. An id
        // a caller typed names an item of a `read: key` collection by its id alone: such a filter
        // never answers with the title of an item the caller may not be allowed to read.
        var titles: [EntityID: String] = [:]
        if let store {
            for filter in filters {
                guard let target = renderer.target(ofField: filter.condition.field), !target.readsNeedKey else { continue }
                let titler = ItemRenderer(collection: target, catalog: nil)
                for case .reference(let id) in filter.condition.values where titles[id] == nil {
                    if let item = try store.item(target.name, id: id) { titles[id] = titler.title(of: item.item, in: context) }
                }
            }
        }
        let text = FilterSummary.text(filters.map(\.condition), of: definition, in: context) { titles[$0] }
        return definition.filteredEmpty.state(in: context.locale, filters: text)
    }

    /// `/v1/<collection>/` (or the child list's path and `/`), made once per list.
    private var detailBase: String { shape.facts.detailBase }

    /// A section by a reference links to the referenced item's detail.
    func sectionLink(_ section: ItemRenderer.SectionHeading) -> String? {
        guard let id = section.item, let field = shape.collection.definition.sections?.field,
            let target = renderer.target(ofField: field)
        else { return nil }
        return CatalogLinks.detail(target, id)
    }

    /// `"columns": […], "sort": […]`: what a table shows above its rows.
    private func writeTableHead(names: [NamedEntry], into json: inout JSONWriter) {
        let columns = renderer.tableColumns(names: names, in: context)
        json.key("columns")
        json.beginArray()
        for column in columns {
            let links = column.sortable ? sortLinks(column.id) : nil
            RowWriter.column(column, sortable: column.sortable, links: links, into: &json)
        }
        json.endArray()
        json.key("sort")
        json.beginArray()
        for key in shape.parameters.sort {
            json.beginObject()
            json.field("column", key.field)
            json.field("order", key.descending ? "descending" : "ascending")
            json.endObject()
        }
        json.endArray()
    }

    /// Links that sort the table by `field`, ascending and descending, from the first page.
    private func sortLinks(_ field: String) -> (ascending: String, descending: String) {
        (
            CatalogLinks.list(shape, limit: limit, sort: [SortKey(field)]),
            CatalogLinks.list(shape, limit: limit, sort: [SortKey(field, descending: true)])
        )
    }
}

/// The rows of one page as they are written: table rows, rows in sections, or plain rows.
private struct PageRows {
    let rows: PlannedRowWriter
    let table: TableCells?
    var sections: PlannedSectionWriter?
    /// Sections were asked for: without a section field to read, no row has a section to go in.
    let sectioned: Bool

    mutating func write(_ row: some RowValues, into json: inout JSONWriter) throws(StoreError) {
        if let table {
            try rows.tableRow(row, table: table, into: &json)
        } else if sections != nil {
            try sections?.row(row, into: &json)
        } else if !sectioned {
            try rows.row(row, into: &json)
        }
    }

    /// Forgets what was written (the store restarted the page).
    mutating func reset() { sections?.reset() }

    /// Closes the open section and the rows.
    mutating func close(into json: inout JSONWriter) {
        sections?.finish(into: &json)
        json.endArray()
    }
}
