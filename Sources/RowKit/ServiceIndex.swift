/// `GET /v1`: every collection the server serves, with the links that start its lists.
public struct ServiceIndex: Decodable, Hashable, Sendable {
    public var collections: [CollectionInfo]

    /// The collection with this id.
    public func collection(_ id: String) throws(RowKitError) -> CollectionInfo {
        guard let collection = collections.first(where: { $0.id == id }) else {
            throw .unknownCollection(id, known: collections.map(\.id))
        }
        return collection
    }
}

/// A collection of the index: its title in the asked language and the links of its views.
public struct CollectionInfo: Decodable, Hashable, Identifiable, Sendable {
    public struct Filter: Decodable, Hashable, Sendable {
        public var name: String
        public var type: String
        public var description: String
    }

    public struct SortKey: Decodable, Hashable, Sendable {
        public var field: String
        public var order: TableSort.Order
    }

    public struct Links: Decodable, Hashable, Sendable {
        /// The rows, in the default order; items are created by POST to it.
        public var list: String
        /// The rows grouped in sections, when the collection has sections.
        public var sections: String?
        /// The table view, when the collection has a table.
        public var table: String?
        /// The change feed: without a token it answers the token for "now".
        public var changes: String
        /// Where several items are written at once (`RowClient.batch`); nil when the collection
        /// is kept read-only (or the server predates batches).
        public var batch: String?
    }

    public var id: String
    public var title: String
    public var sortable: [String]
    public var defaultSort: [SortKey]
    public var filters: [Filter]
    public var sections: Bool
    public var table: Bool
    public var links: Links

    /// The link of a view of the collection; nil when it does not offer that view.
    public func link(_ view: ListView) -> String? {
        switch view {
        case .rows: links.list
        case .sections: links.sections
        case .table: links.table
        }
    }
}

/// The three ways a list can be shown.
public enum ListView: String, CaseIterable, Hashable, Sendable {
    case rows, sections, table
}
