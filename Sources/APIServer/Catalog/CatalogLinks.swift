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
        var parameters = listParameters(shape, sort: sort ?? shape.parameters.sort)
        if limit != shape.collection.definition.limits.defaultLimit { parameters.append(("limit", String(limit))) }
        if let cursor { parameters.append(("cursor", cursor)) }
        return link(list(shape.collection, parent: shape.parent), parameters)
    }

    /// The change feed of the list `shape` describes (its sort, filters, search, sections and
    /// view, not its position), from `since`; nil for a child list, which has no feed.
    static func changes(_ shape: CatalogShape, since: String? = nil, limit: Int? = nil) -> String? {
        guard shape.parent == nil else { return nil }
        var parameters = listParameters(shape, sort: shape.parameters.sort)
        if let limit { parameters.append(("limit", String(limit))) }
        if let since { parameters.append(("since", since)) }
        return link("/v1/\(shape.collection.name)/changes", parameters)
    }

    /// What names a list apart from its position, in a fixed order.
    private static func listParameters(_ shape: CatalogShape, sort: [SortKey]) -> [(String, String)] {
        var parameters: [(String, String)] = []
        if sort != shape.collection.definition.defaultSort {
            parameters.append(("sort", sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")))
        }
        for filter in shape.parameters.filters { parameters.append((filter.name, filter.text)) }
        if let search = shape.parameters.search { parameters.append(("q", search)) }
        if shape.parameters.sections, let sections = shape.collection.definition.sections { parameters.append(("group", sections.name)) }
        if shape.parameters.view == .table { parameters.append(("view", "table")) }
        return parameters
    }

    private static func link(_ base: String, _ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return base }
        return base + "?" + parameters.map { ListLinks.percentEncode($0.0) + "=" + ListLinks.percentEncode($0.1) }.joined(separator: "&")
    }
}
