import Domain
import HTTPServer
import Storage

/// Writes render rows, sections and tables as JSON with constant key sets: every row has
/// `id, title, subtitle, trailing, image, detail`, absent values as `null`.
enum RowWriter {
    /// The keys every row writes, encoded once.
    enum Keys {
        static let id = JSONWriter.Key("id")
        static let title = JSONWriter.Key("title")
        static let subtitle = JSONWriter.Key("subtitle")
        static let trailing = JSONWriter.Key("trailing")
        static let image = JSONWriter.Key("image")
        static let detail = JSONWriter.Key("detail")
        static let cells = JSONWriter.Key("cells")
        static let compact = JSONWriter.Key("compact")
    }

    /// The row's detail link is `detailBase` followed by its id (spelled once per row).
    static func row(_ row: RenderRow, detailBase: String, into json: inout JSONWriter) {
        let id = row.id.rawValue
        json.beginObject()
        json.field(Keys.id, id)
        json.field(Keys.title, row.title)
        json.field(Keys.subtitle, row.subtitle)
        json.field(Keys.trailing, row.trailing)
        json.field(Keys.image, row.image)
        json.key(Keys.detail)
        json.string(detailBase, id)
        json.endObject()
    }

    /// Opens a section: `{"id":…,"header":…,"detail":…,"rows":[`; its rows follow, then
    /// `endArray` and `endObject` close it.
    static func openSection(_ section: ItemRenderer.SectionHeading, detail: String?, into json: inout JSONWriter) {
        json.beginObject()
        json.field("id", section.id)
        json.field("header", section.header)
        json.field("detail", detail)
        json.key("rows")
        json.beginArray()
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
        json.field(Keys.id, id)
        cellsAndCompact(row, into: &json)
        json.key(Keys.detail)
        json.string(detailBase, id)
        json.endObject()
    }

    /// `"cells": {…}, "compact": {title, subtitle}` inside an open object: a table row's, or a
    /// change-feed entry's of a list with a table.
    static func cellsAndCompact(_ row: TableRow, into json: inout JSONWriter) {
        json.key(Keys.cells)
        json.beginObject()
        for cell in row.cells { json.field(cell.column, cell.text) }
        json.endObject()
        json.key(Keys.compact)
        json.beginObject()
        json.field(Keys.title, row.compact.title)
        json.field(Keys.subtitle, row.compact.subtitle)
        json.endObject()
    }
}
