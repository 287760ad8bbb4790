import Domain
import HTTPServer
import Storage

/// The single-item side of the API: details by id, and creating, patching and deleting items.
///
/// Reads answer on the HTTP thread; writes are `.async` routes, so the connection is suspended
/// while the store's group commit runs. Every failure leaves the store untouched: bodies are
/// parsed and validated completely before the one store call that writes.
///
/// Conditional requests: a detail's strong `ETag` is `"v<version>.<locale>"` (see
/// ``DetailEncoder`` for which version); `If-None-Match` with it answers 304 before any
/// encoding. `If-Match` on PATCH and DELETE must name the current version (any locale) or be
/// `*`, else 412 and nothing changes. Without `If-Match` the write proceeds: last writer wins
/// for DELETE, and a PATCH is still applied to the version it read (it is re-read and re-applied
/// when another write lands in between, up to ``patchAttempts`` times, then 409).
///
/// Finished details are kept in `details`, keyed like list pages: by the versions of every
/// collection the detail reads, the item and the locale (``DetailCacheKey``), so a write to any
/// of them changes the key and a stale detail is never served.
struct ItemsController: Sendable {
    let store: any ItemStore
    let details: ResponseCache

    static let patchAttempts = 3

    func register(in router: inout Router) {
        let controller = self
        router.get("/v1/:collection/:id") { request in try controller.detail(request) }
        router.get("/v1/tracks/:id/samples/:sampleID") { request in try controller.sampleDetail(request) }
        router.add(.POST, "/v1/:collection", .async { request in try await controller.create(request) })
        router.add(.PATCH, "/v1/:collection/:id", .async { request in try await controller.update(request) })
        router.add(.DELETE, "/v1/:collection/:id", .async { request in try await controller.delete(request) })
    }

    func detail(_ request: Request) throws(HTTPError) -> Response {
        let collection = try ItemAddress.collection(request)
        let id = try ItemAddress.id(request.parameter("id"), of: collection.kind)
        return try cachedDetail(collection, id, request: request) { () throws(HTTPError) in try load(collection, id) }
    }

    /// A sample by id, only under the track it belongs to.
    func sampleDetail(_ request: Request) throws(HTTPError) -> Response {
        let trackID = try ItemAddress.id(request.parameter("id"), of: .track)
        let sampleID = try ItemAddress.id(request.parameter("sampleID"), of: .sample)
        return try cachedDetail(.samples, sampleID, parent: trackID, request: request) { () throws(HTTPError) in
            let sample = try load(.samples, sampleID)
            guard case .sample(let value) = sample.item, value.trackID == trackID else {
                throw .notFound("This track has no sample with this id.")
            }
            return sample
        }
    }

    /// The detail from the cache, or loaded, rendered and kept; 304 when `If-None-Match` names
    /// its tag either way.
    private func cachedDetail(
        _ collection: StoredCollection, _ id: EntityID, parent: EntityID? = nil, request: Request,
        load: () throws(HTTPError) -> Versioned<StoredItem>
    ) throws(HTTPError) -> Response {
        let locale = request.renderContext.locale
        let key = DetailCacheKey.make(collection: collection, id: id, parent: parent, locale: locale) { store.version(of: $0) }
        if let cached = details.lookup(key) {
            if let tag = cached.headers["ETag"], EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
                return Self.notModified(tag: tag, locale: locale)
            }
            return cached
        }
        let response = try conditionalDetail(try load(), request: request)
        if response.status == 200 { details.store(response, for: key) }
        return response
    }

    /// The item, or 404.
    func load(_ collection: StoredCollection, _ id: EntityID) throws(HTTPError) -> Versioned<StoredItem> {
        let store = store
        guard let item = try StoreError.mapping({ () throws(StoreError) in try store.item(collection, id: id) }) else {
            throw StoreError.notFound(collection, id).httpError
        }
        return item
    }

    func related(_ item: StoredItem) throws(HTTPError) -> DetailEncoder.Related {
        let store = store
        return try StoreError.mapping { () throws(StoreError) in try DetailEncoder.related(for: item, store: store) }
    }

    /// 304 when `If-None-Match` names the current tag (no body is encoded), else the detail.
    private func conditionalDetail(_ item: Versioned<StoredItem>, request: Request) throws(HTTPError) -> Response {
        let related = try related(item.item)
        let context = request.renderContext
        let tag = EntityTag.detail(version: DetailEncoder.version(of: item, related: related), locale: context.locale)
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
            return Self.notModified(tag: tag, locale: context.locale)
        }
        return Self.detailResponse(item, related: related, context: context)
    }

    private static func notModified(tag: String, locale: RenderLocale) -> Response {
        CollectionsController.notModified(tag: tag, locale: locale)
    }

    /// The detail with its `ETag`; `no-cache` because it changes whenever the item is written.
    static func detailResponse(
        _ item: Versioned<StoredItem>, related: DetailEncoder.Related, context: RenderContext, status: Int = 200
    ) -> Response {
        let tag = EntityTag.detail(version: DetailEncoder.version(of: item, related: related), locale: context.locale)
        var response = Response.json(DetailEncoder.body(for: item.item, related: related, context: context), status: status)
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        response.setLanguage(context.locale)
        return response
    }
}
