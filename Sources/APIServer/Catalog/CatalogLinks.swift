import Domain

/// The URLs the API hands out for a catalog's lists and items: clients follow them, never build them.
enum CatalogLinks {
    /// `/v1/<name>`, or `/v1/<parent>/<parentID>/<name>` for a child collection.
    static func list(_ collection: ServedCollection, parent: EntityID?) -> String {
        if let owner = collection.parent, let parent {
            return "/v1/\(owner.collection.name)/\(parent.rawValue)/\(collection.name)"
        }
        return "/v1/\(collection.name)"
    }

    static func detail(_ collection: ServedCollection, _ id: EntityID, parent: EntityID?) -> String {
        list(collection, parent: parent) + "/" + id.rawValue
    }

    /// The detail of an item of a top-level collection.
    static func detail(_ collection: CollectionDefinition, _ id: EntityID) -> String {
        "/v1/\(collection.name)/\(id.rawValue)"
    }

    /// A list link with the request's parameters, in a fixed order, percent-encoded.
    static func list(_ shape: CatalogShape, limit: Int, cursor: String? = nil, sort: [SortKey]? = nil) -> String {
        var parameters: [(String, String)] = []
        let sort = sort ?? shape.parameters.sort
        if sort != shape.collection.definition.defaultSort {
            parameters.append(("sort", sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")))
        }
        for filter in shape.parameters.filters { parameters.append((filter.name, filter.text)) }
        if let search = shape.parameters.search { parameters.append(("q", search)) }
        if shape.parameters.sections, let sections = shape.collection.definition.sections { parameters.append(("group", sections.name)) }
        if shape.parameters.view == .table { parameters.append(("view", "table")) }
        if limit != shape.collection.definition.limits.defaultLimit { parameters.append(("limit", String(limit))) }
        if let cursor { parameters.append(("cursor", cursor)) }
        let base = list(shape.collection, parent: shape.parent)
        guard !parameters.isEmpty else { return base }
        return base + "?" + parameters.map { ListLinks.percentEncode($0.0) + "=" + ListLinks.percentEncode($0.1) }.joined(separator: "&")
    }
}
