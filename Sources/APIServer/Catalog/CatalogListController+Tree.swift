import Domain
import HTTPServer
import Storage

/// The lists of one level of an outline (`tree: {parent: field}`): its roots
/// (`GET /v1/<collection>/roots`) and a node's children (`GET /v1/<collection>/{id}/children`),
/// each a whole list (sorts, filters, search, sections, tables, paging both ways, `around`,
/// `ids`, tags and 304s) with its own change feed (`…/changes`). The collection's own list
/// (`/v1/<collection>`) keeps every node, so a search finds a node at any depth.
extension CatalogListController {
    func roots(_ request: Request) throws -> Response {
        let collection = try outline(request)
        return try page(request, collection: collection, parent: nil, level: .roots) { nil }
    }

    func rootChanges(_ request: Request) throws -> Response {
        let collection = try outline(request)
        return try feed(request, collection: collection, parent: nil, level: .roots)
    }

    func children(_ request: Request, of collection: ServedCollection) throws -> Response {
        let id = try CatalogItemsController.id(request.parameter("id"), of: collection)
        return try page(request, collection: collection, parent: nil, level: .children(of: id)) { () throws in
            _ = try parentItem(collection, id)
            return nil
        }
    }

    /// A node's children's feed: 404 when the node does not exist (its children went with it, or
    /// became roots, as its reference's `onDelete` says).
    func childrenChanges(_ request: Request, of collection: ServedCollection) throws -> Response {
        let id = try CatalogItemsController.id(request.parameter("id"), of: collection)
        _ = try parentItem(collection, id)
        return try feed(request, collection: collection, parent: nil, level: .children(of: id))
    }

    /// The outline a `…/roots` route names, its reads authorized; 404 for a collection that is no outline.
    private func outline(_ request: Request) throws -> ServedCollection {
        let collection = try served.collection(request)
        guard collection.definition.tree != nil else {
            throw HTTPError.notFound("\(collection.name) is no outline: its items have no roots and no children.")
        }
        try authorizeRead(request, collection)
        return collection
    }

    /// The outline a `/v1/<collection>/{id}/children` route names, its reads authorized; nil when
    /// the route names a child collection instead (one called `children` keeps its path).
    func outlineOfChildren(_ request: Request) throws -> ServedCollection? {
        guard request.parameter("child") == Self.childrenSegment, let collection = served.topLevel(request.parameter("collection")),
            collection.definition.tree != nil, served.child(Self.childrenSegment, of: collection) == nil
        else { return nil }
        try authorizeRead(request, collection)
        return collection
    }

    static let childrenSegment = "children"
}
