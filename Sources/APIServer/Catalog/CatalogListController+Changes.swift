import Domain
import HTTPServer
import Storage

/// `GET /v1/<collection>/changes?since=token` (and `GET /v1/<parent>/{id}/<child>/changes` for
/// a child list): what changed after a token, in commit order, one entry per item in its last
/// state, bound to one list of the collection: the list's own parameters (sort, filters, `q`,
/// `group`, `view`; none: the default list) say which. A child list's feed holds the changes of
/// its parent's children only.
///
/// An upsert carries the row and what a client needs to place it without reading the list
/// again: `after`, the id of the row now just before it in that list (null: first), its
/// section (`{id, header, detail}`) when the list has sections, its table cells and compact
/// summary when the collection has a table. An item that exists but is no longer in the list
/// (a filter or the search no longer holds) is a `delete`: the row leaves this list.
extension CatalogListController {
    static let defaultChangeLimit = 100
    static let maxChangeLimit = 1_000

    func changes(_ request: Request) throws -> Response {
        let collection = try served.collection(request)
        try authorizeRead(request, collection)
        return try feed(request, collection: collection, parent: nil)
    }

    /// A child list's feed: 404 when the parent item does not exist.
    func childChanges(_ request: Request) throws -> Response {
        if let outline = try outlineOfChildren(request) { return try childrenChanges(request, of: outline) }
        let (owner, child) = try served.childCollection(request)
        try authorizeRead(request, owner, child)
        let id = try CatalogItemsController.id(request.parameter("id"), of: owner)
        return try feed(request, collection: child, parent: (id, try parentItem(owner, id)))
    }

    /// `level`: the feed of one level of an outline (`parent` is then nil).
    func feed(_ request: Request, collection: ServedCollection, parent: (id: EntityID, item: Item)?, level: TreeLevel? = nil) throws -> Response {
        var since: String?
        var limit = Self.defaultChangeLimit
        var listItems: [QueryItem] = []
        var seen = Set<String>()
        for item in request.query {
            switch item.name {
            case "since", "limit":
                guard seen.insert(item.name).inserted else {
                    throw HTTPError.badRequest("DUPLICATE_PARAMETER", "The parameter '\(item.name)' is given more than once.", parameter: item.name)
                }
                if item.name == "since" {
                    since = item.value
                } else {
                    limit = try ListParameters.parseLimit(item.value, max: Self.maxChangeLimit)
                }
            case "cursor", "around":
                throw HTTPError.badRequest("UNKNOWN_PARAMETER", "A change feed has no \(item.name); it reads on from since.", parameter: item.name)
            default:
                listItems.append(item)
            }
        }
        let parameters = try ListParameters.parse(listItems, for: collection.definition, catalog: served.catalog)
        let shape = CatalogShape(collection: collection, parent: parent?.id, parameters: parameters, level: level)
        let context = request.renderContext
        // Read before the changes, so a write in between shows as a new stamp, never as none.
        let referencesVersion = try Self.referencesVersion(collection, store: store)
        let nextLimit = limit == Self.defaultChangeLimit ? nil : limit
        var json = JSONWriter(capacity: 512)
        json.beginObject()
        json.key("changes")
        json.beginArray()
        var list = CatalogQuery(
            collection: collection.definition, sort: parameters.sort, conditions: parameters.filters.map(\.condition), search: parameters.search,
            sections: parameters.sections, parent: parent?.id, limit: 1, references: [])
        list.level = level
        if Self.wantsEventStream(request) { return try stream(request, since: since, shape: shape, list: list, parentItem: parent?.item) }
        let counting = parameters.counting(collection.definition)
        guard let since else {
            // No token: nothing has changed "since now"; the token marks the present.
            json.endArray()
            if let counts = try store.counts(list, mode: counting, sections: parameters.sections ? .all : .none, proof: nil) {
                Self.writeCounts(counts, sections: parameters.sections, into: &json)
            }
            let token = ChangeToken.seal(collection: collection.name, after: try store.latestSequence(), signer: signer)
            return Self.changesResponse(
                &json, next: token, referencesVersion: referencesVersion, link: CatalogLinks.changes(shape, since: token, limit: nextLimit),
                locale: context.locale)
        }
        let after = try ChangeToken.open(since, collection: collection.name, signer: signer)
        let batch = try store.changes(collection.name, after: after, limit: limit, in: list, counting: counting)
        let writer = ChangeWriter(shape: shape, context: context, references: batch.references, parentItem: parent?.item)
        for change in batch.changes { try writer.write(change, into: &json) }
        json.endArray()
        if let counts = batch.counts { Self.writeCounts(counts, sections: parameters.sections, into: &json) }
        let token = ChangeToken.seal(collection: collection.name, after: batch.resumeAfter, signer: signer)
        return Self.changesResponse(
            &json, next: token, more: batch.hasMore, referencesVersion: referencesVersion,
            link: CatalogLinks.changes(shape, since: token, limit: nextLimit),
            locale: context.locale)
    }

    /// The versions of the collections the list's rows show through references (its own too
    /// when it refers to itself): the feed lists changed items, not the rows that show them, so
    /// a client that sees this stamp change reads its rows again.
    static func referencesVersion(_ collection: ServedCollection, store: any ItemStore) throws(StoreError) -> String {
        let refersToItself = collection.definition.references.contains { $0.target == collection.name }
        let names = collection.dependencies.filter { $0 != collection.name || refersToItself }
        var stamp = "r"
        for (index, name) in names.enumerated() {
            if index > 0 { stamp += "." }
            stamp += String(try store.version(of: name))
        }
        return stamp
    }

    /// The list's `total`, and its sections' counts by id (every section of a list within the
    /// count's bound; past it, none): what a client that reads only the feed shows as numbers.
    static func writeCounts(_ counts: ListCounts, sections: Bool, into json: inout JSONWriter) {
        json.key("total")
        RowWriter.total(counts.total, into: &json)
        guard sections else { return }
        json.key("sections")
        json.beginArray()
        for (id, count) in counts.sections.sorted(by: { $0.key < $1.key }) {
            json.beginObject()
            json.field("id", id)
            json.key("count")
            RowWriter.total(count, into: &json)
            json.endObject()
        }
        json.endArray()
    }

    private static func changesResponse(
        _ json: inout JSONWriter, next: String, more: Bool = false, referencesVersion: String, link: String?, locale: RenderLocale
    ) -> Response {
        json.field("next", next)
        json.field("more", more)
        json.field("referencesVersion", referencesVersion)
        json.key("links")
        json.beginObject()
        json.field("next", link)
        json.endObject()
        json.endObject()
        var response = Response.json(json.bytes)
        response.headers.set("Cache-Control", "no-store")
        response.setLanguage(locale)
        return response
    }
}

/// Writes one change of a list's feed.
struct ChangeWriter {
    let shape: CatalogShape
    let context: RenderContext
    let references: ReferencedItems
    /// A child list's parent: its names make the `forEach` cells of a table.
    let parentItem: Item?
    /// The cells each upsert carries, when the collection has a table: a child list's with its
    /// parent's `forEach` names, as its table pages write them.
    let cells: TableCells?

    init(shape: CatalogShape, context: RenderContext, references: ReferencedItems, parentItem: Item?) {
        self.shape = shape
        self.context = context
        self.references = references
        self.parentItem = parentItem
        let collection = shape.collection
        if let plan = collection.renderer.tableRowPlan, plan.hasForEach {
            let names = collection.renderer.forEachNames(parent: parentItem)
            cells = names.isEmpty ? collection.tableCells : TableCells(plan: plan, names: names)
        } else {
            cells = collection.tableCells
        }
    }

    /// Writes `change`; false when it writes nothing (an item created outside the list).
    @discardableResult
    func write(_ change: CatalogChange, into json: inout JSONWriter) throws(StoreError) -> Bool {
        let collection = shape.collection
        let renderer = collection.renderer
        // An item created since the token and never changed after, outside this list: no client
        // of the list ever had its row, so a delete would only be noise (to every stream of
        // every other list, on each create).
        if change.operation == .insert, change.item == nil || change.placement == nil || change.placement == .outside { return false }
        json.beginObject()
        guard let item = change.item?.item, change.operation != .delete, let placement = change.placement, placement != .outside else {
            // Deleted, deleted since this change, or no longer in this list: the client drops the row.
            json.field("op", "delete")
            json.field("id", change.id.rawValue)
            json.endObject()
            return true
        }
        json.field("op", "upsert")
        json.field("id", change.id.rawValue)
        json.key("after")
        switch placement {
        case .after(let previous): json.string(previous.rawValue)
        case .first, .outside: json.null()
        }
        json.key("row")
        let detailBase = CatalogLinks.list(collection, parent: collection.parentID(of: item)) + "/"
        let rows = PlannedRowWriter(renderer: renderer, context: context, references: references, detailBase: detailBase)
        if collection.definition.tree != nil {
            try rows.row(CountedItem(item: item, childCount: change.childCount), into: &json)
        } else {
            try rows.row(item, into: &json)
        }
        if let section = renderer.section(of: item, references: references, in: context) {
            json.key("section")
            json.beginObject()
            json.field("id", section.id)
            json.field("header", section.header)
            json.field("detail", CatalogPageRenderer(shape: shape, context: context, parentItem: parentItem).sectionLink(section))
            json.endObject()
        }
        if let cells { try rows.cellsAndCompact(item, table: cells, into: &json) }
        json.endObject()
        return true
    }
}
