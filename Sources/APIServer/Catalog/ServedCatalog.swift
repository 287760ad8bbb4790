import Domain
import HTTPServer
import Storage

/// The catalog as the API serves it: each collection with its renderer and what its pages
/// and details depend on, resolved once at start-up.
final class ServedCatalog: Sendable {
    let catalog: Catalog
    let store: any ItemStore
    private let served: [String: ServedCollection]

    init(store: any ItemStore) {
        self.store = store
        catalog = store.catalog
        var served: [String: ServedCollection] = [:]
        for collection in catalog.collections {
            served[collection.name] = ServedCollection(collection, catalog: catalog)
        }
        self.served = served
    }

    /// A collection listed at `/v1/<name>`.
    func topLevel(_ name: String?) -> ServedCollection? {
        guard let name, let collection = served[name], collection.parent == nil else { return nil }
        return collection
    }

    /// A child collection listed at `/v1/<parent>/{id}/<name>`.
    func child(_ name: String?, of parent: ServedCollection) -> ServedCollection? {
        guard let name, let collection = served[name], collection.parent?.collection.name == parent.definition.name else { return nil }
        return collection
    }

    func collection(_ name: String) -> ServedCollection? { served[name] }

    /// The collection a route's `:collection` names; 404 when it names none.
    func collection(_ request: Request) throws(HTTPError) -> ServedCollection {
        guard let collection = topLevel(request.parameter("collection")) else {
            throw .notFound("No collection of that name; GET /v1 lists them.")
        }
        return collection
    }

    /// The parent collection and the child collection a child route names; 404 for either missing.
    func childCollection(_ request: Request) throws(HTTPError) -> (owner: ServedCollection, child: ServedCollection) {
        let owner = try collection(request)
        guard let child = self.child(request.parameter("child"), of: owner) else {
            throw .notFound("No list of that name under \(owner.name); the item's links name its lists.")
        }
        return (owner, child)
    }
}

/// One collection as the API serves it. A class: a request looks one up and passes it along,
/// and as a struct of definitions and renderers each copy would retain every field.
final class ServedCollection: Sendable {
    let definition: CollectionDefinition
    let renderer: ItemRenderer
    /// For a child collection: its parent collection and the reference field naming the parent item.
    let parent: (collection: CollectionDefinition, field: Int)?
    /// The collections whose versions a page or detail of this one depends on (list ETags, cache keys).
    let dependencies: [String]
    /// Per view (rows, sections, table): the reference fields whose items its pages fetch. Never
    /// a child list's parent field: the controller has loaded that item to know it exists.
    private let shownReferences: [[Int]]
    /// Its table's cells without `forEach` names (what a table of a top-level list writes, and
    /// a change feed's upsert), their keys encoded once.
    let tableCells: TableCells?
    /// What its details write that the definition decides (`DetailWriter`).
    let detailPlan: DetailPlan
    /// Its table pages' heads, kept per query and locale.
    let tableHeads = TableHeads(limit: 1_024)
    /// Its lists' fingerprints and links, kept per list.
    let listShapes = BoundedMemo<ListShapes.Key, ListShapes.Facts>(limit: ListShapes.limit)

    init(_ definition: CollectionDefinition, catalog: Catalog) {
        self.definition = definition
        renderer = ItemRenderer(collection: definition, catalog: catalog)
        if let parent = definition.parent, let collection = catalog.collection(named: parent.collection) {
            self.parent = (collection, parent.field)
        } else {
            parent = nil
        }
        dependencies = catalog.dependencies(of: definition).map(\.name)
        detailPlan = DetailPlan(definition, catalog: catalog)
        tableCells = renderer.tableRowPlan.map { TableCells(plan: $0) }
        shownReferences = [ItemRenderer.View.rows, .sections, .table].map { [renderer] view in
            renderer.referenceFields(shownIn: view).filter { $0 != definition.parent?.field }
        }
    }

    func referenceFields(_ view: ItemRenderer.View) -> [Int] {
        switch view {
        case .rows: shownReferences[0]
        case .sections: shownReferences[1]
        case .table: shownReferences[2]
        }
    }

    var name: String { definition.name }

    /// The parent item id of `item` of a child collection.
    func parentID(of item: Item) -> EntityID? {
        guard let parent, let slot = definition.fields[parent.field].slot else { return nil }
        return item[slot: slot].reference
    }
}
