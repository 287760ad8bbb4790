import Domain
import HTTPServer
import Storage

/// The JSON of what surrounds a list's rows (section openings, table columns, the empty state),
/// and the rows' keys (`PlannedRowWriter` writes the rows): constant key sets, absent values as `null`.
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
        static let childCount = JSONWriter.Key("childCount")
        static let children = JSONWriter.Key("children")
    }

    /// Opens a section: `{"id":…,"header":…,"detail":…,"rows":[`; its rows follow, then
    /// `endArray` and `endObject` close it.
    /// Opens a section's object and its rows; answers where its `count` goes (before `"rows"`).
    @discardableResult
    static func openSection(_ section: ItemRenderer.SectionHeading, detail: String?, into json: inout JSONWriter) -> Int {
        json.beginObject()
        json.field("id", section.id)
        json.field("header", section.header)
        json.field("detail", detail)
        let countAt = json.count
        json.key("rows")
        json.beginArray()
        return countAt
    }

    /// `{"value": 1284, "exact": true}`: how many rows a list or a section holds.
    static func total(_ total: ListTotal, into json: inout JSONWriter) {
        json.beginObject()
        json.field("value", Int(clamping: total.value))
        json.field("exact", total.exact)
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
}
