import Domain
import HTTPServer
import Storage

/// `GET /v1/<collection>/changes?since=token`: what changed after a token, in commit order,
/// one entry per item in its last state. An upsert carries the row, and what a client needs to
/// place it without reloading: its section (`{id, header}`) when the list has sections, its
/// table cells and compact summary when it has a table.
extension CatalogListController {
    static let defaultChangeLimit = 100
    static let maxChangeLimit = 1_000

    func changes(_ request: Request) throws(HTTPError) -> Response {
        let collection = try collection(request)
        var since: String?
        var limit = Self.defaultChangeLimit
        var seen = Set<String>()
        for item in request.query {
            guard seen.insert(item.name).inserted else {
                throw .badRequest("DUPLICATE_PARAMETER", "The parameter '\(item.name)' is given more than once.", parameter: item.name)
            }
            switch item.name {
            case "since": since = item.value
            case "limit":
                guard !item.value.isEmpty, item.value.utf8.count <= 4, item.value.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let value = Int(item.value), (1...Self.maxChangeLimit).contains(value)
                else {
                    throw .badRequest("INVALID_LIMIT", "limit must be a whole number from 1 to \(Self.maxChangeLimit).", parameter: "limit")
                }
                limit = value
            default:
                throw .badRequest("UNKNOWN_PARAMETER", "The parameter '\(item.name)' is not known here.", parameter: item.name)
            }
        }
        let context = request.renderContext
        var json = JSONWriter(capacity: 512)
        json.beginObject()
        json.key("changes")
        json.beginArray()
        guard let since else {
            // No token: nothing has changed "since now"; the token marks the present.
            json.endArray()
            let token = ChangeToken.seal(collection: collection.name, after: store.latestSequence(), signer: signer)
            return Self.changesResponse(&json, next: token, more: false, collection: collection.name, locale: context.locale)
        }
        let after = try ChangeToken.open(since, collection: collection.name, signer: signer)
        let store = store
        let batch = try StoreError.mapping { () throws(StoreError) in try store.changes(collection.name, after: after, limit: limit) }
        let renderer = collection.renderer
        // A list with a table: each upsert carries its cells (a top-level list has no forEach names).
        let hasTable = collection.definition.table != nil
        for change in batch.changes {
            json.beginObject()
            guard let item = change.item?.item, change.operation != .delete else {
                // Deleted, or deleted since this change: either way the client drops the row.
                json.field("op", "delete")
                json.field("id", change.id.rawValue)
                json.endObject()
                continue
            }
            let detailBase = CatalogLinks.list(collection, parent: collection.parentID(of: item)) + "/"
            json.field("op", "upsert")
            json.field("id", change.id.rawValue)
            json.key("row")
            RowWriter.row(renderer.row(item, references: batch.references, in: context), detailBase: detailBase, into: &json)
            if let section = renderer.section(of: item, references: batch.references, in: context) {
                json.key("section")
                json.beginObject()
                json.field("id", section.id)
                json.field("header", section.header)
                json.endObject()
            }
            if hasTable {
                RowWriter.cellsAndCompact(renderer.tableRow(item, references: batch.references, in: context), into: &json)
            }
            json.endObject()
        }
        json.endArray()
        let token = ChangeToken.seal(collection: collection.name, after: batch.resumeAfter, signer: signer)
        return Self.changesResponse(&json, next: token, more: batch.hasMore, collection: collection.name, locale: context.locale)
    }

    private static func changesResponse(_ json: inout JSONWriter, next: String, more: Bool, collection: String, locale: RenderLocale) -> Response {
        json.field("next", next)
        json.field("more", more)
        json.key("links")
        json.beginObject()
        json.field("next", "/v1/\(collection)/changes?since=\(next)")
        json.endObject()
        json.endObject()
        var response = Response.json(json.bytes)
        response.headers.set("Cache-Control", "no-store")
        response.setLanguage(locale)
        return response
    }
}
