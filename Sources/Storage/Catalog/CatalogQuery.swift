import Domain

/// A page request on a catalog store, already validated by the API: sorts and filters are the
/// collection's, the limit is in range, filter values have their field's type.
public struct CatalogQuery: Sendable, Hashable {
    public var collection: String
    /// Sort names and directions; the store appends the id (ascending) so the order is total.
    public var sort: [SortKey]
    public var conditions: [FieldCondition]
    /// Raw user text: a case- and diacritic-insensitive substring search over the collection's
    /// search texts; nil or blank means none.
    public var search: String?
    /// Order by section first, so pages cut into sections.
    public var sections: Bool
    /// For a child collection: the parent item whose children are listed.
    public var parent: EntityID?
    /// For an outline: one level of it (its roots, or one node's children); nil: every node.
    public var level: TreeLevel?
    /// Keyset position: the `nextAfter` of the previous page; nil for the first page.
    public var after: [SortValue]?
    /// Only these items (a selection by id); nil: every item the conditions keep.
    public var ids: [EntityID]?
    public var limit: Int
    /// The reference fields whose items the page returns (`CatalogPage.references`); nil for all.
    public var references: [Int]?
    /// The stored slots a visited page's rows read (`visitPage`), ascending: the others are
    /// selected as NULL, so a database sends none of what the rows do not show (a long
    /// description). nil: every slot, as `page` and a row's `item()` need.
    public var reads: [Int]?
    /// Whether the page says which sections it showed (`PageEnd.sections`), for their counts.
    public var collectsSections = false

    public init(
        collection: CollectionDefinition, sort: [SortKey]? = nil, conditions: [FieldCondition] = [], search: String? = nil,
        sections: Bool = false, parent: EntityID? = nil, after: [SortValue]? = nil, limit: Int = 50, references: [Int]? = nil
    ) {
        self.references = references
        self.collection = collection.name
        self.sort = sort ?? collection.defaultSort
        self.conditions = conditions
        self.search = search
        self.sections = sections
        self.parent = parent
        self.after = after
        self.limit = limit
    }
}

/// One level of an outline (`CollectionDefinition.tree`).
public enum TreeLevel: Sendable, Hashable {
    /// The nodes without a parent.
    case roots
    /// The nodes whose parent is this one.
    case children(of: EntityID)
}

/// A page of items in order, the items their references point to, and where the next page starts.
public struct CatalogPage: Sendable {
    public var items: [Versioned<Item>]
    public var nextAfter: [SortValue]?
    /// The position of the first item (nil for none): where the page before it ends.
    public var firstAt: [SortValue]? = nil
    /// Every item a reference field of the page's items points to.
    public var references: ReferencedItems = .none
    /// The sections the page showed, by keyset prefix, in order (`CatalogQuery.collectsSections`).
    public var sections: [[SortValue]] = []
    /// For an outline: each item's number of children, by id, read with the page.
    public var childCounts: [EntityID: Int] = [:]
}

/// One entry of a catalog collection's change feed: the item's last state when it still exists.
public struct CatalogChange: Sendable, Hashable {
    public var sequence: Int64
    public var id: EntityID
    public var operation: ChangeOperation
    public var item: Versioned<Item>?
    /// Where the item now stands in the list the feed was asked for; nil for a deleted item
    /// or a feed read without a list.
    public var placement: ListPlacement?
    /// The id of the API key that made the change; nil for a command's or the seed's.
    public var author: String?
    /// For an outline: the item's number of children now; nil for a deleted item.
    public var childCount: Int? = nil
}

public struct CatalogChangeBatch: Sendable {
    public var changes: [CatalogChange]
    public var hasMore: Bool
    /// The token to continue from: the last entry's sequence, or the one asked for.
    public var resumeAfter: Int64
    /// Every item a reference field of the changed items points to.
    public var references: ReferencedItems
    /// The list's counts in the batch's snapshot, when asked (`ItemStore.changes(…counting:)`).
    public var counts: ListCounts? = nil
}
