import Domain
import HTTPServer
import Storage

/// Turns a page of stored items into the list body: rows, sections or a table, with the
/// cursor and links that continue it and the empty state when there is nothing to show.
struct PageRenderer {
    var shape: QueryShape
    var descriptor: CollectionDescriptor
    var context: RenderContext
    /// For samples: the track, whose channels make the table's columns.
    var track: Track?

    func body(page: Page, next: String?) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + page.items.count * 200)
        json.beginObject()
        switch (shape.options.view, shape.options.groupByDepartment) {
        case (.table, _): writeTable(page, into: &json)
        case (.rows, true): writeSections(page, into: &json)
        case (.rows, false): writeRows(page, into: &json)
        }
        json.key("next")
        json.stringOrNull(next)
        json.field("limit", shape.options.limit)
        json.key("empty")
        RowWriter.emptyState(page.items.isEmpty ? emptyState : nil, into: &json)
        json.key("links")
        json.beginObject()
        json.field("self", ListLinks.list(shape, limit: shape.options.limit, cursor: shape.options.cursor))
        json.field("next", next.map { ListLinks.list(shape, limit: shape.options.limit, cursor: $0) })
        json.endObject()
        json.endObject()
        return json.bytes
    }

    /// What an empty list shows: the search variant when a search found nothing.
    var emptyState: EmptyState {
        if let search = shape.options.search { return .noResults(query: search) }
        return .empty(collection: shape.collection.kind)
    }

    private func detailLink(_ id: EntityID) -> String {
        ListLinks.detail(shape.collection, id, parent: shape.parent)
    }

    private func writeRows(_ page: Page, into json: inout JSONWriter) {
        json.key("rows")
        json.beginArray()
        for entry in page.items {
            RowWriter.row(ItemRows.row(entry.item, in: context, track: track), detail: detailLink(entry.item.id), into: &json)
        }
        json.endArray()
    }

    /// Consecutive people of one department form a section; a department that continues on the
    /// next page starts that page with a section of the same id, so clients merge by id.
    private func writeSections(_ page: Page, into json: inout JSONWriter) {
        json.key("sections")
        json.beginArray()
        var open: EntityID?
        for entry in page.items {
            guard case .person(let person) = entry.item else { continue }
            if open != person.departmentID {
                if open != nil {
                    json.endArray()
                    json.endObject()
                }
                open = person.departmentID
                json.beginObject()
                json.field("id", person.departmentID.rawValue)
                json.field("header", page.departments[person.departmentID]?.name ?? "")
                json.field("detail", ListLinks.detail(.departments, person.departmentID))
                json.key("rows")
                json.beginArray()
            }
            RowWriter.row(person.row(in: context), detail: detailLink(person.id), into: &json)
        }
        if open != nil {
            json.endArray()
            json.endObject()
        }
        json.endArray()
    }

    private func writeTable(_ page: Page, into json: inout JSONWriter) {
        let columns = tableColumns
        json.key("columns")
        json.beginArray()
        for column in columns {
            let sortable = descriptor.isSortable(column.id)
            let links = sortable ? sortLinks(column.id) : nil
            RowWriter.column(column, sortable: sortable, links: links, into: &json)
        }
        json.endArray()
        json.key("sort")
        json.beginArray()
        for key in shape.options.sort {
            json.beginObject()
            json.field("column", key.field)
            json.field("order", key.descending ? "descending" : "ascending")
            json.endObject()
        }
        json.endArray()
        json.key("rows")
        json.beginArray()
        let sampleTable = track.map(SampleTable.init)
        for entry in page.items {
            let row: TableRow? =
                switch entry.item {
                case .product(let product): ProductTable.row(for: product, in: context)
                case .person(let person): PeopleTable.row(for: person, in: context)
                case .sample(let sample): sampleTable?.row(for: sample, in: context)
                default: nil
                }
            if let row { RowWriter.tableRow(row, columns: columns, detail: detailLink(entry.item.id), into: &json) }
        }
        json.endArray()
    }

    var tableColumns: [TableColumn] {
        switch shape.collection {
        case .products: ProductTable.columns
        case .people: PeopleTable.columns
        case .samples: track.map { SampleTable(track: $0).columns } ?? [SampleTable.timestamp]
        default: []
        }
    }

    /// Links that sort the table by `field`, ascending and descending, from the first page.
    private func sortLinks(_ field: String) -> (ascending: String, descending: String) {
        (
            ListLinks.list(shape, limit: shape.options.limit, sort: [SortKey(field)]),
            ListLinks.list(shape, limit: shape.options.limit, sort: [SortKey(field, descending: true)])
        )
    }
}
