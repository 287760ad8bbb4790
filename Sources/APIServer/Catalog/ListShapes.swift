import Domain
import Storage

/// What every page of one list shares, kept per collection by parent and parameters but the
/// cursor: the fingerprint its cursors carry and its links.
///
/// Every uncached page would make them again: the shape's canonical text and its digest, the
/// `self` and `changes` links and the next link's parameters, percent-encoded. They depend on the definition and the
/// parameters only, never on data, so nothing makes them stale; the memo empties itself past
/// `limit` lists, which bounds its memory whatever the queries (a search's text is part of the key).
enum ListShapes {
    struct Key: Hashable, Sendable {
        var parent: EntityID?
        /// Without the cursor: every page of the list shares the facts.
        var parameters: ListParameters
        /// One level of an outline; nil: every item.
        var level: TreeLevel?

        init(parent: EntityID?, parameters: ListParameters, level: TreeLevel? = nil) {
            self.parent = parent
            self.level = level
            self.parameters = parameters
            self.parameters.cursor = nil
            self.parameters.around = nil
            self.parameters.ids = nil
        }
    }

    struct Facts: Sendable {
        /// The first 8 bytes of the SHA-256 of the shape's canonical text (`Cursor`).
        let fingerprint: [UInt8]
        /// The list's link at its limit, without a cursor.
        let link: String
        /// The list's change feed.
        let changes: String
        /// The list's letter index; nil for a list not in text order.
        let index: String?
        /// A row's detail link is this followed by its id.
        let detailBase: String
        /// Whether `link` has a query, which a cursor then joins with `&`.
        let linkHasQuery: Bool

        init(collection: ServedCollection, parent: EntityID?, parameters: ListParameters, level: TreeLevel? = nil) {
            fingerprint = ShapeFingerprints.digest(CatalogShape.canonical(collection.name, parent: parent, parameters: parameters, level: level))
            link = CatalogLinks.list(collection, parent: parent, level: level, parameters: parameters, limit: parameters.limit)
            changes = CatalogLinks.changes(collection, parent: parent, level: level, parameters: parameters)
            // An outline's level has no index of its own (no route): only whole lists do.
            index =
                level == nil && parameters.isTextOrder(collection.definition)
                ? CatalogLinks.index(collection, parent: parent, parameters: parameters) : nil
            detailBase = CatalogLinks.list(collection, parent: parent) + "/"
            linkHasQuery = link.utf8.contains(UInt8(ascii: "?"))
        }

        /// The list's link at `cursor`: last, as `CatalogLinks.list` writes it.
        func link(cursor: String?) -> String {
            guard let cursor else { return link }
            return link + (linkHasQuery ? "&cursor=" : "?cursor=") + ListLinks.percentEncode(cursor)
        }

        /// The list's link with one more parameter (`around`, `ids`), percent-encoded.
        func link(adding name: String, _ value: String) -> String {
            link + (linkHasQuery ? "&" : "?") + name + "=" + ListLinks.percentEncode(value)
        }
    }

    static let limit = 1_024
}
