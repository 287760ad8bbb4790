import Domain

/// A page request, already validated by the API: fields are sortable, the limit is in range.
public struct ListQuery: Sendable, Hashable {
    public var collection: StoredCollection
    /// The order; the store appends the id (ascending) so the order is total.
    public var sort: [SortKey]
    public var filters: [ListFilter]
    /// Raw user text for a case- and diacritic-insensitive substring search over what the rows
    /// show (title and subtitle); nil or empty means no search.
    public var search: String?
    /// People only: order by department name first, so pages cut into sections.
    public var groupByDepartment: Bool
    /// Samples only: the track whose samples are listed.
    public var parent: EntityID?
    /// Keyset position: the `Page.nextAfter` of the previous page; nil for the first page.
    public var after: [SortValue]?
    /// 1...200, checked by the API.
    public var limit: Int

    public init(
        collection: StoredCollection, sort: [SortKey]? = nil, filters: [ListFilter] = [], search: String? = nil,
        groupByDepartment: Bool = false, parent: EntityID? = nil, after: [SortValue]? = nil, limit: Int = 50
    ) {
        self.collection = collection
        self.sort = sort ?? collection.defaultSort
        self.filters = filters
        self.search = search
        self.groupByDepartment = groupByDepartment
        self.parent = parent
        self.after = after
        self.limit = limit
    }
}

/// The filters a collection offers (published by the API's index).
public enum ListFilter: Sendable, Hashable, Codable {
    /// People in one department.
    case department(EntityID)
    /// Products whose price in minor units is at least / at most this.
    case minPrice(Int64)
    case maxPrice(Int64)
}

/// One value of a keyset position: a sort key's value for the last row of a page.
public enum SortValue: Sendable, Hashable, Codable {
    case text(String)
    case integer(Int64)
}

/// A page of items in order, and where the next page starts.
public struct Page: Sendable {
    public var items: [Versioned<StoredItem>]
    /// The keyset position after the last item (its sort values, then its id), or nil when
    /// this is the last page.
    public var nextAfter: [SortValue]?
    /// For people pages: the departments of the people on the page, by id (section headers).
    public var departments: [EntityID: Department]

    public init(items: [Versioned<StoredItem>], nextAfter: [SortValue]?, departments: [EntityID: Department] = [:]) {
        self.items = items
        self.nextAfter = nextAfter
        self.departments = departments
    }
}
