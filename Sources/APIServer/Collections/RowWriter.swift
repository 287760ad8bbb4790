import Domain
import HTTPServer
import Storage

/// Writes render rows, sections and tables as JSON with constant key sets: every row has
/// `id, title, subtitle, trailing, image, detail`, absent values as `null`.
enum RowWriter {
    /// The row's detail link is `detailBase` followed by its id (spelled once per row).
    static func row(_ row: RenderRow, detailBase: String, into json: inout JSONWriter) {
        let id = row.id.rawValue
        json.beginObject()
        json.field("id", id)
        json.field("title", row.title)
        json.field("subtitle", row.subtitle)
        json.field("trailing", row.trailing)
        json.field("image", row.image)
        json.key("detail")
        json.string(detailBase, id)
        json.endObject()
    }

    static func emptyState(_ state: EmptyState?, into json: inout JSONWriter) {
        guard let state else { return json.null() }
        json.beginObject()
        json.field("title", state.title)
        json.field("description", state.description)
        json.field("image", state.image)
        json.endObject()
    }

    static func column(_ column: TableColumn, sortable: Bool, links: (ascending: String, descending: String)?, into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", column.id)
        json.field("title", column.title)
        json.field("sortable", sortable)
        json.field("alignment", column.alignment.rawValue)
        json.key("links")
        if let links {
            json.beginObject()
            json.field("ascending", links.ascending)
            json.field("descending", links.descending)
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
    }

    static func tableRow(_ row: TableRow, detailBase: String, into json: inout JSONWriter) {
        let id = row.id.rawValue
        json.beginObject()
        json.field("id", id)
        cellsAndCompact(row, into: &json)
        json.key("detail")
        json.string(detailBase, id)
        json.endObject()
    }

    /// `"cells": {…}, "compact": {title, subtitle}` inside an open object: a table row's, or a
    /// change-feed entry's of a list with a table.
    static func cellsAndCompact(_ row: TableRow, into json: inout JSONWriter) {
        json.key("cells")
        json.beginObject()
        for cell in row.cells { json.field(cell.column, cell.text) }
        json.endObject()
        json.key("compact")
        json.beginObject()
        json.field("title", row.compact.title)
        json.field("subtitle", row.compact.subtitle)
        json.endObject()
    }
}
