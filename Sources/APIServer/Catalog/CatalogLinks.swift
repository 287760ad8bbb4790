import Domain
import Storage

/// The URLs the API hands out for a catalog's lists and items: clients follow them, never build them.
enum CatalogLinks {
    /// `/v1/<name>`, or `/v1/<parent>/<parentID>/<name>` for a child collection; one level of an
    /// outline: `/v1/<name>/roots`, `/v1/<name>/<nodeID>/children`.
    static func list(_ collection: ServedCollection, parent: EntityID?, level: TreeLevel? = nil) -> String {
        switch level {
        case .roots?: return "/v1/\(collection.name)/roots"
        case .children(let node)?: return "/v1/\(collection.name)/\(node.rawValue)/children"
        case nil: break
        }
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
        list(shape.collection, parent: shape.parent, level: shape.level, parameters: shape.parameters, limit: limit, cursor: cursor, sort: sort)
    }

    /// The list of `collection` under `parent` with `parameters` (`sort` in place of theirs when
    /// given) at `limit` and `cursor`.
    static func list(
        _ collection: ServedCollection, parent: EntityID?, level: TreeLevel? = nil, parameters: ListParameters, limit: Int, cursor: String? = nil,
        sort: [SortKey]? = nil
    ) -> String {
        var pairs = listParameters(collection, parameters, sort: sort ?? parameters.sort)
        if limit != collection.definition.limits.defaultLimit { pairs.append(("limit", String(limit))) }
        if let cursor { pairs.append(("cursor", cursor)) }
        return link(list(collection, parent: parent, level: level), pairs)
    }

    /// The change feed of the list `shape` describes (its sort, filters, search, sections and
    /// view, not its position; a child list's parent), from `since`.
    static func changes(_ shape: CatalogShape, since: String? = nil, limit: Int? = nil) -> String {
        changes(shape.collection, parent: shape.parent, level: shape.level, parameters: shape.parameters, since: since, limit: limit)
    }

    static func changes(
        _ collection: ServedCollection, parent: EntityID?, level: TreeLevel? = nil, parameters: ListParameters, since: String? = nil,
        limit: Int? = nil
    ) -> String {
        var pairs = listParameters(collection, parameters, sort: parameters.sort)
        if let limit { pairs.append(("limit", String(limit))) }
        if let since { pairs.append(("since", since)) }
        return link(list(collection, parent: parent, level: level) + "/changes", pairs)
    }

    /// The letter index of the list `parameters` describe (its sort, filters, search and view).
    static func index(_ collection: ServedCollection, parent: EntityID?, parameters: ListParameters) -> String {
        var pairs = listParameters(collection, parameters, sort: parameters.sort)
        pairs.removeAll { $0.0 == "count" }
        return link(list(collection, parent: parent) + "/index", pairs)
    }

    /// What names a list apart from its position, in a fixed order.
    private static func listParameters(_ collection: ServedCollection, _ parameters: ListParameters, sort: [SortKey]) -> [(String, String)] {
        var pairs: [(String, String)] = []
        if sort != collection.definition.defaultSort {
            pairs.append(("sort", sort.map { ($0.descending ? "-" : "") + $0.field }.joined(separator: ",")))
        }
        for filter in parameters.filters { pairs.append((filter.name, filter.text)) }
        if let search = parameters.search { pairs.append(("q", search)) }
        if parameters.sections, let sections = collection.definition.sections { pairs.append(("group", sections.name)) }
        if parameters.view == .table { pairs.append(("view", "table")) }
        if let count = parameters.count { pairs.append(("count", count.rawValue)) }
        return pairs
    }

    private static func link(_ base: String, _ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return base }
        return base + "?" + parameters.map { ListLinks.percentEncode($0.0) + "=" + ListLinks.percentEncode($0.1) }.joined(separator: "&")
    }
}
