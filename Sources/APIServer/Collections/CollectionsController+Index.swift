import Domain
import HTTPServer
import Storage

extension CollectionsController {
    /// `GET /v1`: every collection with its links, sortable fields, default sort, filters,
    /// and whether it offers sections and a table. It changes only with the server's version.
    func index(_ request: Request) -> Response {
        let tag = "\"i\(RowserverVersion.current)\""
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
            var response = Response.empty(status: 304)
            response.headers.set("ETag", tag)
            response.headers.set("Cache-Control", "no-cache")
            return response
        }
        var response = Response.json(Self.indexBody)
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        return response
    }

    static let indexBody: [UInt8] = {
        var json = JSONWriter(capacity: 2_048)
        json.beginObject()
        json.key("collections")
        json.beginArray()
        for descriptor in CollectionDescriptor.all {
            let collection = descriptor.collection
            json.beginObject()
            json.field("id", collection.rawValue)
            json.field("title", descriptor.title)
            json.key("sortable")
            json.beginArray()
            for field in collection.sortableFields { json.string(field) }
            json.endArray()
            json.key("defaultSort")
            json.beginArray()
            for key in collection.defaultSort {
                json.beginObject()
                json.field("field", key.field)
                json.field("order", key.descending ? "descending" : "ascending")
                json.endObject()
            }
            json.endArray()
            json.key("filters")
            json.beginArray()
            for filter in descriptor.filters {
                json.beginObject()
                json.field("name", filter.name)
                switch filter.kind {
                case .entityID(let kind): json.field("type", "id:\(kind.rawValue)")
                case .minorUnits: json.field("type", "minorUnits")
                }
                json.field("description", filter.description)
                json.endObject()
            }
            json.endArray()
            json.field("sections", descriptor.offersSections)
            json.field("table", descriptor.offersTable)
            json.key("links")
            json.beginObject()
            json.field("list", descriptor.path)
            json.field("sections", descriptor.offersSections ? descriptor.path + "?group=department" : nil)
            json.field("table", descriptor.offersTable ? descriptor.path + "?view=table" : nil)
            json.field("changes", descriptor.path + "/changes")
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }()
}
