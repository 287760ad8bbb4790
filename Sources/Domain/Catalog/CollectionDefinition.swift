/// One collection as a definition declares it, checked and resolved: fields by index, every
/// name it refers to known. Built once at start-up by the definition loader; immutable, and a
/// class so that requests pass it around without copying.
public final class CollectionDefinition: Sendable {
    /// The URL segment (`/v1/<name>`) and the base of its storage names.
    public let name: String
    /// The prefix of its items' ids.
    public let kind: EntityKind
    public let title: LocalizedText
    /// Every field, stored and computed, in declared order (the detail's order).
    public let fields: [FieldDefinition]
    /// The field index of each stored slot: `fields[slots[i]].slot == i`.
    public let slots: [Int]
    public let row: RowDefinition
    public let sorts: [SortDefinition]
    public let defaultSort: [SortKey]
    public let filters: [FilterDefinition]
    /// The texts `q` searches, folded: none (no search), the title, or the title and a subtitle.
    public let search: [ValueSpec]
    public let sections: SectionDefinition?
    public let table: TableDefinition?
    public let empty: EmptyStateDefinition
    /// The empty state of a search that found nothing; `{query}` in its title is the query.
    public let searchEmpty: EmptyStateDefinition
    /// The empty state of a filtered list that kept nothing (no search given: a search's state
    /// wins, its query being what the user typed); `{filters}` stands for the filters.
    public let filteredEmpty: EmptyStateDefinition
    public let limits: ListLimits
    public let parent: ParentDefinition?
    /// For an outline: the reference that names each item's parent item of this collection.
    public let tree: TreeDefinition?
    /// Whether clients may create, change and delete items (with a key that has a write scope).
    public let writable: Bool
    /// Whether reading its lists and details needs an API key with a read scope (`read: key`);
    /// else anyone may read.
    public let readsNeedKey: Bool
    /// Whether its pages count their rows when the request does not say (`count`): none by default.
    public let defaultCount: ListCount

    private let fieldIndex: [String: Int]

    public init(
        name: String, kind: EntityKind, title: LocalizedText, fields: [FieldDefinition], row: RowDefinition, sorts: [SortDefinition],
        defaultSort: [SortKey], filters: [FilterDefinition], search: [ValueSpec], sections: SectionDefinition?, table: TableDefinition?,
        empty: EmptyStateDefinition, searchEmpty: EmptyStateDefinition, filteredEmpty: EmptyStateDefinition = .defaultFilteredEmpty,
        limits: ListLimits, parent: ParentDefinition?, writable: Bool, readsNeedKey: Bool = false, defaultCount: ListCount = .none,
        tree: TreeDefinition? = nil
    ) {
        self.name = name
        self.kind = kind
        self.title = title
        self.fields = fields
        var slots = [Int](repeating: -1, count: fields.count(where: \.isStored))
        for (index, field) in fields.enumerated() {
            if let slot = field.slot, slots.indices.contains(slot) { slots[slot] = index }
        }
        self.slots = slots
        self.row = row
        self.sorts = sorts
        self.defaultSort = defaultSort
        self.filters = filters
        self.search = search
        self.sections = sections
        self.table = table
        self.empty = empty
        self.searchEmpty = searchEmpty
        self.filteredEmpty = filteredEmpty
        self.limits = limits
        self.parent = parent
        self.tree = tree
        self.writable = writable
        self.readsNeedKey = readsNeedKey
        self.defaultCount = defaultCount
        fieldIndex = Dictionary(fields.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The index of the field called `name`.
    public func fieldIndex(named name: String) -> Int? { fieldIndex[name] }

    public func field(named name: String) -> FieldDefinition? { fieldIndex[name].map { fields[$0] } }

    public func sort(named name: String) -> SortDefinition? { sorts.first { $0.name == name } }

    public func filter(named name: String) -> FilterDefinition? { filters.first { $0.name == name } }

    public var isSearchable: Bool { !search.isEmpty }

    /// The stored fields, in slot order.
    public var storedFields: [FieldDefinition] { slots.map { fields[$0] } }

    /// The key an embedded reference to one of its items shows the item's title under: the stored
    /// field its rows take their title from, or `title` when that title is made (a template or a
    /// computed field).
    public var embeddedTitleKey: String {
        guard case .field(let index) = row.title.source, fields.indices.contains(index), fields[index].isStored else { return "title" }
        return fields[index].name
    }

    /// The slot of an outline's parent reference; nil when the collection is no outline.
    public var treeSlot: Int? {
        guard let tree, fields.indices.contains(tree.field) else { return nil }
        return fields[tree.field].slot
    }

    /// Reference fields, with their indexes.
    public var references: [(index: Int, field: FieldDefinition, target: String)] {
        fields.enumerated().compactMap { index, field in
            field.type.referencedCollection.map { (index, field, $0) }
        }
    }
}
