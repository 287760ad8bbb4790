import Domain
import HTTPServer
import Storage

/// The item routes of a catalog: details by id (`/v1/<collection>/{id}`, and
/// `/v1/<parent>/{id}/<child>/{childID}` for a child's), creates, merge patches and deletes.
struct CatalogItemsController: Sendable {
    let served: ServedCatalog
    let details: ResponseCache
    let idempotency: IdempotentWrites

    static let patchAttempts = 3

    var store: any ItemStore { served.store }

    func register(in router: inout Router) {
        let controller = self
        router.get("/v1/:collection/:id") { request in try controller.detail(request) }
        router.get("/v1/:collection/:id/:child/:childID") { request in try controller.childDetail(request) }
        let writable = controller.writable
        router.add(.POST, "/v1/:collection", .async { request in try await controller.create(request) }, available: writable)
        router.add(.POST, "/v1/:collection/batch", .async { request in try await controller.batch(request) }, available: writable)
        router.add(
            .POST, "/v1/:collection/:id/:child/batch", .async { request in try await controller.childBatch(request) }, available: writable)
        router.add(.PATCH, "/v1/:collection/:id", .async { request in try await controller.update(request) }, available: writable)
        router.add(.DELETE, "/v1/:collection/:id", .async { request in try await controller.delete(request) }, available: writable)
        router.add(.POST, "/v1/:collection/:id/:child", .async { request in try await controller.childCreate(request) }, available: writable)
        router.add(
            .PATCH, "/v1/:collection/:id/:child/:childID", .async { request in try await controller.childUpdate(request) }, available: writable)
        router.add(
            .DELETE, "/v1/:collection/:id/:child/:childID", .async { request in try await controller.childDelete(request) }, available: writable)
    }

    /// Write methods exist unless the route names a collection the server keeps (`writable:
    /// false`): then `Allow` leaves them out and they are 405, as the OpenAPI document has no
    /// write operations for it. A name of no collection keeps them (the handler answers 404).
    var writable: Router.Availability {
        let served = served
        return { parameters in
            guard var collection = served.topLevel(parameters["collection"]) else { return true }
            if let child = parameters["child"] {
                guard let found = served.child(child, of: collection) else { return true }
                collection = found
            }
            return collection.definition.writable
        }
    }

    static func id(_ raw: String?, of collection: ServedCollection) throws(HTTPError) -> EntityID {
        guard let raw, let id = EntityID(parsing: raw, kind: collection.definition.kind) else {
            throw .notFound("No item in \(collection.name) has this id.")
        }
        return id
    }

    func detail(_ request: Request) throws -> Response {
        let collection = try served.collection(request)
        try authorizeRead(request, collection)
        let id = try Self.id(request.parameter("id"), of: collection)
        return try cachedDetail(collection, id, parent: nil, request: request) { () throws in try load(collection, id) }
    }

    func childDetail(_ request: Request) throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeRead(request, owner, child)
        let parent = try Self.id(request.parameter("id"), of: owner)
        let id = try Self.id(request.parameter("childID"), of: child)
        return try cachedDetail(child, id, parent: parent, request: request) { () throws in
            let item = try load(child, id)
            guard child.parentID(of: item.item) == parent else { throw Self.underAnotherParent(owner, child) }
            return item
        }
    }

    /// The 404 of a child item asked for under a parent that is not its own, which says so: a
    /// client that built a wrong path can tell it from a deleted item. Only a caller who may read
    /// both collections gets this far (every child route authorizes first; a write scope reads
    /// too), so it learns of no item it could not read.
    static func underAnotherParent(_ owner: ServedCollection, _ child: ServedCollection) -> HTTPError {
        .notFound("This \(child.name) item belongs to another \(owner.name) item, not to this one: the path under its own reaches it.")
    }

    private func cachedDetail(
        _ collection: ServedCollection, _ id: EntityID, parent: EntityID?, request: Request, load: () throws -> Versioned<Item>
    ) throws -> Response {
        let context = request.renderContext
        let locale = context.locale
        let store = store
        // A cache turned off (`--response-cache 0`) costs no key and no lookup.
        let key = details.isEnabled ? DetailCacheKey.make(collection: collection, id: id, parent: parent, locale: locale) : nil
        let kept = key.flatMap(details.watchedEntry)
        let holds = try kept.map { kept in try kept.watch.map { try store.unchanged($0.items, since: $0.sequence) } ?? false } ?? false
        details.count(holds)
        if let cached = kept?.response, holds {
            if let tag = cached.headers["ETag"], EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
                return CatalogListController.notModified(tag: tag, locale: locale)
            }
            return cached
        }
        // Read before the item: every change up to it is in what is read next, so the entry
        // watches from here (a later change read too only makes it be made again).
        let sequence = key == nil ? 0 : try store.latestSequence()
        let item = try load()
        let related = try related(item, in: collection)
        let tag = EntityTag.detail(version: related.version, locale: locale)
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) {
            return CatalogListController.notModified(tag: tag, locale: locale)
        }
        let response = detailResponse(item.item, collection: collection, related: related, context: context, tag: tag)
        guard let key else { return response }
        let watch = ResponseCache.Watch(sequence: sequence, items: [ItemAddress(collection.name, id)] + related.watched)
        return details.store(response, for: key, watching: watch)
    }

    func load(_ collection: ServedCollection, _ id: EntityID) throws -> Versioned<Item> {
        let store = store
        guard let item = try store.item(collection.name, id: id) else {
            throw StoreError.missing(collection: collection.name, id)
        }
        return item
    }

    /// The items a detail shows of its references, and the detail's version: the newest of the
    /// item's and theirs (renaming a department changes its people's details).
    struct Related {
        var references: ReferencedItems
        var version: Int64
        /// Every item a reference names, found or not: a detail shows them, or shows them missing.
        var watched: [ItemAddress] = []
        /// An outline node's ancestors, root first; nil for an item of no outline.
        var ancestors: [Item]?
    }

    func related(_ versioned: Versioned<Item>, in collection: ServedCollection) throws -> Related {
        let item = versioned.item
        var related = Related(references: ReferencedItems(), version: versioned.version)
        let store = store
        for reference in collection.definition.references {
            guard let slot = reference.field.slot, let id = item[slot: slot].reference else { continue }
            related.watched.append(ItemAddress(reference.target, id))
            if let found = try store.item(reference.target, id: id) {
                related.references.insert(found.item)
                related.version = max(related.version, found.version)
            }
        }
        // A detail shows its ancestors' titles: renaming or moving one changes the detail.
        if collection.definition.tree != nil {
            let ancestors = try store.ancestors(collection.name, of: item.id)
            for ancestor in ancestors {
                related.watched.append(ItemAddress(collection.name, ancestor.item.id))
                related.version = max(related.version, ancestor.version)
            }
            related.ancestors = ancestors.map(\.item)
        }
        return related
    }

    /// `tag`: the detail's `ETag` when the caller has made it already.
    func detailResponse(
        _ item: Item, collection: ServedCollection, related: Related, context: RenderContext, status: Int = 200, tag: String? = nil
    ) -> Response {
        let tag = tag ?? EntityTag.detail(version: related.version, locale: context.locale)
        let writer = DetailWriter(served: served, collection: collection, context: context)
        let body = writer.body(item, references: related.references, ancestors: related.ancestors)
        return CatalogListController.revalidated(.json(body, status: status), tag: tag, locale: context.locale)
    }
}
