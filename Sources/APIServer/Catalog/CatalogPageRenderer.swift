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

    private var renderer: ItemRenderer { shape.collection.renderer }
    private var limit: Int { shape.parameters.limit }

    /// `nextLink` is the list link that carries `next`.
    func body(page: CatalogPage, next: String?, nextLink: String?) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + page.items.count * 200)
        json.beginObject()
        var references = page.references
        if let parentItem { references.insert(parentItem) }
        switch (shape.parameters.view, shape.parameters.sections) {
        case (.table, _): writeTable(page, references: references, into: &json)
        case (.rows, true): writeSections(page, references: references, into: &json)
        case (.rows, false): writeRows(page, references: references, into: &json)
        }
        writeEnd(isEmpty: page.items.isEmpty, next: next, nextLink: nextLink, into: &json)
        return json.bytes
    }

    /// Whether `streamedBody` can write this page: rows, or sections, whose rows show nothing of
    /// other items (a child list's parent aside, which the controller has read).
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

    /// Reads and writes the page at once, each row straight from the store's row
    /// (`PlannedRowWriter`, `PlannedSectionWriter`); `seal` makes the cursor and its link from
    /// where the page ended.
    func streamedBody(
        _ query: CatalogQuery, store: any ItemStore, seal: ([SortValue]?) -> (next: String?, link: String?)
    ) throws(StoreError) -> (bytes: [UInt8], nextLink: String?) {
        var json = JSONWriter(capacity: 256 + limit * 200)
        json.beginObject()
        let table = shape.parameters.view == .table ? renderer.tableRowPlan : nil
        if table != nil {
            let key = TableHeads.Key(parent: shape.parent, parameters: shape.parameters, locale: context.locale)
            json.raw(
                shape.collection.tableHeads.head(for: key) {
                    var head = JSONWriter(capacity: 1_024)
                    writeTableHead(names: [], into: &head)
                    return head.bytes
                })
        }
        json.key(shape.parameters.sections ? "sections" : "rows")
        json.beginArray()
        let start = json.mark()
        let cellKeys = shape.collection.tableCellKeys
        var references = ReferencedItems()
        if let parentItem { references.insert(parentItem) }
        let rows = PlannedRowWriter(renderer: renderer, context: context, references: references, detailBase: detailBase)
        var sections = renderer.sectionSlot.flatMap { slot in
            shape.parameters.sections
                ? PlannedSectionWriter(
                    rows: rows, slot: slot, target: shape.collection.definition.sections.flatMap { renderer.target(ofField: $0.field)?.name },
                    link: sectionLink)
                : nil
        }
        var query = query
        query.reads = reads(table: table)
        let end = try store.visitPage(
            query,
            restart: {
                json.rewind(to: start)
                sections?.reset()
            },
            visit: { row throws(StoreError) in
                if let table {
                    try rows.tableRow(row, plan: table, cellKeys: cellKeys, into: &json)
                } else if sections != nil {
                    try sections?.row(row, into: &json)
                } else {
                    try rows.row(row, into: &json)
                }
            })
        sections?.finish(into: &json)
        json.endArray()
        let (next, nextLink) = seal(end.nextAfter)
        writeEnd(isEmpty: end.count == 0, next: next, nextLink: nextLink, into: &json)
        return (json.bytes, nextLink)
    }

    /// What follows the rows: the cursor, the limit, the empty state and the links; closes the body.
    private func writeEnd(isEmpty: Bool, next: String?, nextLink: String?, into json: inout JSONWriter) {
        json.key("next")
        json.stringOrNull(next)
        json.field("limit", limit)
        json.key("empty")
        RowWriter.emptyState(isEmpty ? emptyState : nil, into: &json)
        json.key("links")
        json.beginObject()
        json.field("self", shape.facts.link(cursor: shape.parameters.cursor))
        json.field("next", nextLink)
        json.field("changes", shape.facts.changes)
        json.endObject()
        json.endObject()
    }

    /// What an empty list shows: the search variant (`{query}` replaced) when a search found nothing.
    var emptyState: EmptyState {
        let definition = shape.collection.definition
        guard let search = shape.parameters.search else { return definition.empty.state(in: context.locale) }
        return definition.searchEmpty.state(in: context.locale, query: search)
    }

    /// `/v1/<collection>/` (or the child list's path and `/`), made once per list.
    private var detailBase: String { shape.facts.detailBase }

    private func writeRows(_ page: CatalogPage, references: ReferencedItems, into json: inout JSONWriter) {
        json.key("rows")
        json.beginArray()
        let base = detailBase
        for entry in page.items {
            RowWriter.row(renderer.row(entry.item, references: references, in: context), detailBase: base, into: &json)
        }
        json.endArray()
    }

    /// Consecutive items of one section form a section; a section that continues on the next
    /// page starts that page with the same id, so clients merge by id.
    private func writeSections(_ page: CatalogPage, references: ReferencedItems, into json: inout JSONWriter) {
        json.key("sections")
        json.beginArray()
        var open: FieldValue?
        let base = detailBase
        for entry in page.items {
            guard let key = renderer.sectionKey(of: entry.item) else { continue }
            if open != key {
                guard let section = renderer.section(of: entry.item, references: references, in: context) else { continue }
                if open != nil {
                    json.endArray()
                    json.endObject()
                }
                open = key
                RowWriter.openSection(section, detail: sectionLink(section), into: &json)
            }
            RowWriter.row(renderer.row(entry.item, references: references, in: context), detailBase: base, into: &json)
        }
        if open != nil {
            json.endArray()
            json.endObject()
        }
        json.endArray()
    }

    /// A section by a reference links to the referenced item's detail.
    func sectionLink(_ section: ItemRenderer.SectionHeading) -> String? {
        guard let id = section.item, let field = shape.collection.definition.sections?.field,
            let target = renderer.target(ofField: field)
        else { return nil }
        return CatalogLinks.detail(target, id)
    }

    private func writeTable(_ page: CatalogPage, references: ReferencedItems, into json: inout JSONWriter) {
        let names = renderer.forEachNames(parent: parentItem)
        let nameIDs = names.map(\.id.rawValue)
        writeTableHead(names: names, into: &json)
        json.key("rows")
        json.beginArray()
        let base = detailBase
        for entry in page.items {
            let row = renderer.tableRow(entry.item, names: names, nameIDs: nameIDs, references: references, in: context)
            RowWriter.tableRow(row, detailBase: base, into: &json)
        }
        json.endArray()
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
