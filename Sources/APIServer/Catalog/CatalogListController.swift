import Domain
import HTTPServer
import Storage

/// The list routes of a catalog: `GET /v1/<collection>` (rows, sections or table), child lists
/// `GET /v1/<parent>/{id}/<child>`, and their change feeds (`…/changes`).
struct CatalogListController: Sendable {
    let served: ServedCatalog
    let signer: TokenSigner
    let cache: ResponseCache
    /// `GET /v1` per locale, at `RenderLocale.ordinal`.
    let indexBodies: [[UInt8]]
    /// The open streams of lists; nil: lists are not streamed.
    let live: LiveLists?

    init(served: ServedCatalog, signer: TokenSigner, cache: ResponseCache, live: LiveLists? = nil) {
        self.served = served
        self.signer = signer
        self.cache = cache
        self.live = live
        indexBodies = RenderLocale.allCases.map { Self.indexBody(served.catalog, locale: $0) }
    }

    var store: any ItemStore { served.store }

    func register(in router: inout Router) {
        let controller = self
        router.get("/v1") { request in controller.index(request) }
        router.get("/v1/:collection") { request in try controller.list(request) }
        router.get("/v1/:collection/changes") { request in try controller.changes(request) }
        router.get("/v1/:collection/index") { request in try controller.letters(request) }
        router.get("/v1/:collection/roots") { request in try controller.roots(request) }
        router.get("/v1/:collection/roots/changes") { request in try controller.rootChanges(request) }
        router.get("/v1/:collection/:id/:child") { request in try controller.childList(request) }
        router.get("/v1/:collection/:id/:child/changes") { request in try controller.childChanges(request) }
        router.get("/v1/:collection/:id/:child/index") { request in try controller.childLetters(request) }
    }

    func list(_ request: Request) throws -> Response {
        let collection = try served.collection(request)
        try authorizeRead(request, collection)
        return try page(request, collection: collection, parent: nil) { nil }
    }

    func childList(_ request: Request) throws -> Response {
        if let outline = try outlineOfChildren(request) { return try children(request, of: outline) }
        let (owner, child) = try served.childCollection(request)
        try authorizeRead(request, owner, child)
        let id = try CatalogItemsController.id(request.parameter("id"), of: owner)
        return try page(request, collection: child, parent: id) { () throws in try parentItem(owner, id) }
    }

    /// The parent item a child list or its feed names; 404 when there is none (its list is gone with it).
    func parentItem(_ owner: ServedCollection, _ id: EntityID) throws -> Item {
        guard let parent = try store.item(owner.name, id: id) else { throw HTTPError.notFound("No item in \(owner.name) has this id.") }
        return parent.item
    }

    /// `level`: one level of an outline (`parent` is then nil).
    func page(
        _ request: Request, collection: ServedCollection, parent: EntityID?, level: TreeLevel? = nil, loadParent: () throws -> Item?
    ) throws -> Response {
        let context = request.renderContext
        let store = store
        let versions = try collection.dependencies.map { try store.version(of: $0) }
        // No key without a cache (`--response-cache 0`): nothing would be found or kept under it.
        let key = cache.maxEntries > 0 ? ListCacheKey.make(versions: versions, target: request.target, locale: context.locale) : nil
        let revalidation = request.headers["If-None-Match"]
        let kept = key.flatMap { cache.lookup($0) }
        if let kept, revalidation == nil { return kept }
        // A kept page carries the tag its versions, target and locale digest to.
        let tag = kept?.headers["ETag"] ?? ListETag.make(versions: versions, target: request.target, locale: context.locale)
        // A tag is issued only with a page that passed every check below and covers the exact
        // target, locale and versions: a kept page under it, or a client's copy naming it, answers.
        if let revalidation, revalidation == tag { return Self.notModified(tag: tag, locale: context.locale) }
        let parameters = try ListParameters.parse(request.query, for: collection.definition, catalog: served.catalog)
        let shape = CatalogShape(collection: collection, parent: parent, parameters: parameters, level: level)
        // `If-None-Match: *` must not answer 304 for a parent that does not exist: read it first.
        let parentItem = try loadParent()
        if EntityTag.noneMatchHits(revalidation, current: tag) {
            return Self.notModified(tag: tag, locale: context.locale)
        }
        if let kept { return kept }
        let position = try parameters.cursor.map { cursor throws(HTTPError) in try Cursor.open(cursor, shape: shape, signer: signer) }
        var query = CatalogQuery(
            collection: collection.definition, sort: parameters.sort, conditions: parameters.filters.map(\.condition), search: parameters.search,
            sections: parameters.sections, parent: parent, limit: parameters.limit,
            references: collection.referenceFields(parameters.view == .table ? .table : parameters.sections ? .sections : .rows))
        query.level = level
        // The page before a position is read forwards, like every page, from where it starts.
        switch position {
        case .after(let values)?: query.after = values
        case .before(let values)?:
            let start = try store.pageStart(before: values, in: query, rows: nil)
            query.after = start.after
            // The first page ends where the page after it starts: after as many rows as precede it.
            if start.after == nil && start.rows > 0 { query.limit = start.rows }
        case nil:
            // The page that holds the row, with half a page before it.
            guard let around = parameters.around, let id = EntityID(parsing: around) else { break }
            guard let position = try store.position(of: id, in: query) else {
                throw HTTPError.notFound("No row of this list has the id \(around): around opens the page that holds a row of the list.")
            }
            query.after = try store.pageStart(before: position, in: query, rows: parameters.limit / 2).after
        }
        let isFirstPage = query.after == nil
        let links = { (nextAfter: [SortValue]?, firstAt: [SortValue]?) -> PageLinks in
            var links = PageLinks()
            if let nextAfter {
                let next = Cursor.seal(after: nextAfter, shape: shape, signer: signer)
                // Made once: the body's links.next and the Link header carry the same URL.
                (links.next, links.nextLink) = (next, shape.facts.link(cursor: next))
            }
            guard !isFirstPage else { return links }
            links.firstLink = shape.facts.link(cursor: nil)
            links.prevLink = firstAt.map { shape.facts.link(cursor: Cursor.seal(before: $0, shape: shape, signer: signer)) }
            return links
        }
        var renderer = CatalogPageRenderer(shape: shape, context: context, parentItem: parentItem, store: store)
        let counting = parameters.counting(collection.definition)
        if counting != .none {
            // The list's counts, whatever the page's position: read once the page says which sections it showed.
            let list = query
            query.collectsSections = parameters.sections
            renderer.counts = { sections, shown throws(StoreError) in
                // A last page is the whole list only when it is the first too.
                var proof = shown
                proof.whole = shown.whole && list.after == nil
                return try store.counts(list, mode: counting, sections: parameters.sections ? .shown(sections) : .none, proof: proof)
            }
        }
        let body: [UInt8]
        let pageLinks: PageLinks
        if let ids = parameters.ids {
            // Those rows in the order asked: read as one page of the list (so a child list's
            // parent holds), then put in that order; the ids it has no row for are named.
            query.ids = ids
            query.limit = ids.count
            var selection = try store.page(query)
            var found: [EntityID: Versioned<Item>] = [:]
            for entry in selection.items { found[entry.item.id] = entry }
            selection.items = ids.compactMap { found[$0] }
            pageLinks = PageLinks()
            body = try renderer.body(page: selection, links: pageLinks, missing: ids.filter { found[$0] == nil })
        } else if renderer.writesFromStore {
            (body, pageLinks) = try renderer.streamedBody(query, store: store, links: links)
        } else {
            let result = try store.page(query)
            pageLinks = links(result.nextAfter, result.firstAt)
            body = try renderer.body(page: result, links: pageLinks)
        }
        var response = Response.json(body)
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        if let header = pageLinks.header { response.headers.set("Link", header) }
        response.setLanguage(context.locale)
        guard let key else { return response }
        return cache.store(response, for: key)
    }

    static func notModified(tag: String, locale: RenderLocale) -> Response {
        revalidated(.empty(status: 304), tag: tag, locale: locale)
    }

    /// `response` with what every answer a client revalidates carries: its tag, `no-cache`, its language.
    static func revalidated(_ response: Response, tag: String, locale: RenderLocale) -> Response {
        var response = response
        response.headers.set("ETag", tag)
        response.headers.set("Cache-Control", "no-cache")
        response.setLanguage(locale)
        return response
    }
}
