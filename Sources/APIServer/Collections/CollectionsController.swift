import Domain
import HTTPServer
import Storage

/// The list side of the API: the index, pages of rows, sections and tables, and the change
/// feed. Every response carries links, so clients follow them instead of building URLs.
struct CollectionsController: Sendable {
    let store: any ItemStore
    let signer: TokenSigner
    /// Rendered pages by ETag (see ResponseCache: the tag changes with every relevant write).
    let cache: ResponseCache

    func register(in router: inout Router) {
        let controller = self
        router.get("/v1") { request in controller.index(request) }
        router.get("/v1/:collection") { request in try controller.list(request) }
        router.get("/v1/:collection/changes") { request in try controller.changes(request) }
        router.get("/v1/tracks/:id/samples") { request in try controller.samples(request) }
    }

    private func descriptor(_ request: Request) throws(HTTPError) -> CollectionDescriptor {
        guard let name = request.parameter("collection"), let descriptor = CollectionDescriptor.named(name) else {
            throw .notFound("No collection of that name; GET /v1 lists them.")
        }
        return descriptor
    }

    func list(_ request: Request) throws(HTTPError) -> Response {
        try page(request, descriptor: try descriptor(request), parent: nil) { () throws(HTTPError) in nil }
    }

    /// A track's samples. The track is read only when the page is not cached: a cached page's
    /// tag covers the tracks collection, so a deleted or changed track never hits a stale entry.
    func samples(_ request: Request) throws(HTTPError) -> Response {
        guard let raw = request.parameter("id"), let id = EntityID(parsing: raw, kind: .track) else {
            throw .notFound("No track with this id.")
        }
        let store = store
        return try page(request, descriptor: .samples, parent: id) { () throws(HTTPError) in
            guard case .track(let track)? = try StoreError.mapping({ () throws(StoreError) in try store.item(.tracks, id: id) })?.item else {
                throw .notFound("No track with this id.")
            }
            return track
        }
    }

    private func page(
        _ request: Request, descriptor: CollectionDescriptor, parent: EntityID?, loadTrack: () throws(HTTPError) -> Track?
    ) throws(HTTPError) -> Response {
        let context = request.renderContext
        let tag = ListETag.make(collection: descriptor.collection, store: store, target: request.target, locale: context.locale)
        let revalidation = request.headers["If-None-Match"]
        // The fast lane of repeated requests. A tag is issued only with a page that passed every
        // check below, and it covers the exact target, the locale and the versions the page
        // read: a kept page under it, or the client's copy naming it exactly, is this request's
        // answer, and its parameters need no second reading.
        if let revalidation {
            if revalidation == tag { return Self.notModified(tag: tag, locale: context.locale) }
        } else if let cached = cache.lookup(tag) {
            return cached
        }
        let options = try ListOptions.parse(request.query, for: descriptor)
        let shape = QueryShape(collection: descriptor.collection, parent: parent, options: options)
        // `If-None-Match: *` must not answer 304 for a track that does not exist: read it first.
        let track = try loadTrack()
        if EntityTag.noneMatchHits(revalidation, current: tag) {
            return Self.notModified(tag: tag, locale: context.locale)
        }
        if let cached = cache.lookup(tag) { return cached }
        let after = try options.cursor.map { cursor throws(HTTPError) in try Cursor.open(cursor, shape: shape, signer: signer) }
        let query = ListQuery(
            collection: descriptor.collection, sort: options.sort, filters: options.filters, search: options.search,
            groupByDepartment: options.groupByDepartment, parent: parent, after: after, limit: options.limit)
        let result = try StoreError.mapping { () throws(StoreError) in try store.page(query) }
        let next = result.nextAfter.map { Cursor.seal(after: $0, shape: shape, signer: signer) }
        let renderer = PageRenderer(shape: shape, descriptor: descriptor, context: context, track: track)
        var response = Response.json(renderer.body(page: result, next: next))
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        if let next {
            response.headers.set("Link", "<\(ListLinks.list(shape, limit: options.limit, cursor: next))>; rel=\"next\"")
        }
        response.setLanguage(context.locale)
        cache.store(response, for: tag)
        return response
    }

    static func notModified(tag: String, locale: RenderLocale) -> Response {
        var response = Response.empty(status: 304)
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        response.setLanguage(locale)
        return response
    }

    // MARK: - Change feed

    static let defaultChangeLimit = 100
    static let maxChangeLimit = 1_000

    func changes(_ request: Request) throws(HTTPError) -> Response {
        let descriptor = try descriptor(request)
        let collection = descriptor.collection
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
            let token = ChangeToken.seal(collection: collection, after: store.latestSequence(), signer: signer)
            return Self.changesResponse(&json, next: token, more: false, collection: collection, locale: context.locale)
        }
        let after = try ChangeToken.open(since, collection: collection, signer: signer)
        let batch = try StoreError.mapping { () throws(StoreError) in try store.changes(collection, after: after, limit: limit) }
        for change in batch.changes {
            json.beginObject()
            if let item = change.item?.item, change.operation != .delete {
                json.field("op", "upsert")
                json.field("id", change.id.rawValue)
                json.key("row")
                RowWriter.row(ItemRows.row(item, in: context), detail: ListLinks.detail(collection, change.id), into: &json)
            } else {
                // Deleted, or deleted since this change: either way the client drops the row.
                json.field("op", "delete")
                json.field("id", change.id.rawValue)
            }
            json.endObject()
        }
        json.endArray()
        let token = ChangeToken.seal(collection: collection, after: batch.resumeAfter, signer: signer)
        return Self.changesResponse(&json, next: token, more: batch.hasMore, collection: collection, locale: context.locale)
    }

    private static func changesResponse(
        _ json: inout JSONWriter, next: String, more: Bool, collection: StoredCollection, locale: RenderLocale
    ) -> Response {
        json.field("next", next)
        json.field("more", more)
        json.key("links")
        json.beginObject()
        json.field("next", "/v1/\(collection.rawValue)/changes?since=\(next)")
        json.endObject()
        json.endObject()
        var response = Response.json(json.bytes)
        response.headers.set("Cache-Control", "no-store")
        response.setLanguage(locale)
        return response
    }
}
