import Domain
import HTTPServer
import Storage

/// `GET /v1`: every top-level collection with its title, sorts, filters, views and links, in
/// the request's language. Built once per locale: it changes only with the definition.
extension CatalogListController {
    func index(_ request: Request) -> Response {
        let locale = request.renderContext.locale
        let tag = "\"i\(RowserverVersion.current).\(locale.rawValue)\""
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
            return CatalogListController.notModified(tag: tag, locale: locale)
        }
        return CatalogListController.revalidated(.json(indexBodies[locale.ordinal]), tag: tag, locale: locale)
    }

    static func indexBody(_ catalog: Catalog, locale: RenderLocale) -> [UInt8] {
        var json = JSONWriter(capacity: 2_048)
        json.beginObject()
        json.key("collections")
        json.beginArray()
        for collection in catalog.topLevel {
            let path = "/v1/\(collection.name)"
            json.beginObject()
            json.field("id", collection.name)
            json.field("title", collection.title[locale])
            json.key("sortable")
            json.beginArray()
            for sort in collection.sorts { json.string(sort.name) }
            json.endArray()
            json.key("defaultSort")
            json.beginArray()
            for key in collection.defaultSort {
                json.beginObject()
                // `field` held the sort's name from the start (a sort may be named apart from its
                // field); `sort` says so, and `field` stays for the clients that read it.
                json.field("sort", key.field)
                json.field("field", key.field)
                json.field("order", key.descending ? "descending" : "ascending")
                json.endObject()
            }
            json.endArray()
            json.key("filters")
            json.beginArray()
            for filter in collection.filters {
                let type = collection.fields[filter.field].type
                json.beginObject()
                json.field("name", filter.name)
                if let target = type.referencedCollection.flatMap(catalog.collection(named:)) {
                    json.field("type", "id:\(target.kind.rawValue)")
                } else {
                    json.field("type", type.name)
                }
                json.field("description", filter.description?[locale] ?? "")
                json.endObject()
            }
            json.endArray()
            json.field("sections", collection.sections != nil)
            json.field("table", collection.table != nil)
            json.key("links")
            json.beginObject()
            json.field("list", path)
            json.field("sections", collection.sections.map { path + "?group=" + $0.name })
            json.field("table", collection.table != nil ? path + "?view=table" : nil)
            json.field("changes", path + "/changes")
            // Where several of its items are written at once; none for a collection kept read-only.
            json.field("batch", collection.writable ? path + "/batch" : nil)
            // An outline's roots: only where there are (every other collection's links stay as they were).
            if collection.tree != nil { json.field("roots", path + "/roots") }
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
