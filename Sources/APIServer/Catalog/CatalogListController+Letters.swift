import Domain
import HTTPServer
import Storage

/// `GET /v1/<collection>/index` (and `…/<child>/index` under a parent): the letter index of a
/// list in text order, the strip a screen shows beside it. Each letter the list's first key
/// starts with (folded, so `Ä` files under A), with its rows (counted up to 1,000) and the link
/// that opens the list at it. The list's parameters (sort, filters, search, view) name which
/// list; it has no position.
extension CatalogListController {
    /// The most rows a letter counts one by one: past it, its count says "at least".
    static let letterBound = 1_000
    /// The most letters an index lists.
    static let maxLetters = 200

    func letters(_ request: Request) throws -> Response {
        let collection = try served.collection(request)
        try authorizeRead(request, collection)
        return try letters(request, collection: collection, parent: nil)
    }

    func childLetters(_ request: Request) throws -> Response {
        let (owner, child) = try served.childCollection(request)
        try authorizeRead(request, owner, child)
        let id = try CatalogItemsController.id(request.parameter("id"), of: owner)
        _ = try parentItem(owner, id)
        return try letters(request, collection: child, parent: id)
    }

    private func letters(_ request: Request, collection: ServedCollection, parent: EntityID?) throws -> Response {
        let context = request.renderContext
        let parameters = try ListParameters.parse(request.query, for: collection.definition, catalog: served.catalog)
        for (name, given) in [("cursor", parameters.cursor != nil), ("around", parameters.around != nil), ("ids", parameters.ids != nil)]
        where given {
            throw HTTPError.badRequest("UNKNOWN_PARAMETER", "A letter index has no \(name): it covers the whole list.", parameter: name)
        }
        guard parameters.isTextOrder(collection.definition) else {
            let texts = collection.definition.sorts.filter { ListParameters.isText(collection.definition, sort: $0.name) }.map(\.name)
            throw HTTPError.badRequest(
                "NO_LETTER_INDEX",
                "A letter index needs a list in text order, without sections: sort it by "
                    + (texts.isEmpty ? "a text field (\(collection.name) have none)." : texts.joined(separator: " or ") + "."),
                parameter: "sort")
        }
        let versions = try collection.dependencies.map { try store.version(of: $0) }
        let tag = ListETag.make(versions: versions, target: request.target, locale: context.locale)
        if EntityTag.noneMatchHits(request.headers["If-None-Match"], current: tag) { return Self.notModified(tag: tag, locale: context.locale) }
        let shape = CatalogShape(collection: collection, parent: parent, parameters: parameters)
        let query = CatalogQuery(
            collection: collection.definition, sort: parameters.sort, conditions: parameters.filters.map(\.condition), search: parameters.search,
            parent: parent, limit: parameters.limit, references: [])
        let letters = try store.letters(query, bound: Self.letterBound, limit: Self.maxLetters)
        var json = JSONWriter(capacity: 256 + letters.count * 160)
        json.beginObject()
        json.key("letters")
        json.beginArray()
        for letter in letters {
            json.beginObject()
            json.field("letter", letter.letter.uppercased())
            json.key("count")
            RowWriter.total(letter.count, into: &json)
            json.field("link", shape.facts.link(cursor: Cursor.seal(after: letter.start, shape: shape, signer: signer)))
            json.endObject()
        }
        json.endArray()
        json.key("links")
        json.beginObject()
        json.field("self", shape.facts.index ?? request.target)
        json.field("list", shape.facts.link)
        json.endObject()
        json.endObject()
        return Self.revalidated(Response.json(json.bytes), tag: tag, locale: context.locale)
    }
}

extension ListParameters {
    /// Whether the list is in text order: its first sort is by a text field, with no sections before it.
    func isTextOrder(_ collection: CollectionDefinition) -> Bool {
        guard !sections, let first = sort.first else { return false }
        return Self.isText(collection, sort: first.field)
    }

    /// Whether the sort named `name` orders by a text a person reads letter by letter.
    static func isText(_ collection: CollectionDefinition, sort name: String) -> Bool {
        guard let sort = collection.sort(named: name), collection.fields.indices.contains(sort.field) else { return false }
        switch collection.fields[sort.field].type {
        case .text, .email, .phone: return true
        default: return false
        }
    }
}
