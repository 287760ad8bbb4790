/// A field clients may sort by, under the name `sort=` uses (usually the field's own).
///
/// Text sorts compare the search-folded text bytewise (`Émile` with `emile`), money sorts by
/// currency and then amount (amounts of different currencies are never compared), enums in
/// declaration order, booleans false first, dates and numbers by value. The id ends every order.
public struct SortDefinition: Sendable, Hashable {
    public let name: String
    public let field: Int

    public init(name: String, field: Int) {
        self.name = name
        self.field = field
    }
}

/// One key of a sort order: a sort's name, ascending unless `descending`.
public struct SortKey: Sendable, Hashable, Codable {
    public var field: String
    public var descending: Bool

    public init(_ field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// A query parameter of the list that keeps only the items whose field passes.
public struct FilterDefinition: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable {
        /// The field equals the value (for references: the id).
        case equals
        /// The field is one of a comma-separated list of values.
        case oneOf
        /// At least / at most the value. Money compares within the value's currency only.
        case atLeast
        case atMost
    }

    public let name: String
    public let field: Int
    public let operation: Operation
    public let description: LocalizedText?

    public init(name: String, field: Int, operation: Operation, description: LocalizedText? = nil) {
        self.name = name
        self.field = field
        self.operation = operation
        self.description = description
    }
}

/// How `group=<name>` cuts a list into sections (seed 003's staff directory): by a reference
/// field, headed by the referenced item's title and ordered by it, or by an enum field, headed
/// by the value's label and ordered as the values are declared.
public struct SectionDefinition: Sendable, Hashable {
    public let name: String
    public let field: Int

    public init(name: String, field: Int) {
        self.name = name
        self.field = field
    }
}

/// The table view (seed 002): columns, and the compact summary a narrow client shows instead.
public struct TableDefinition: Sendable, Hashable {
    public let columns: [ColumnDefinition]
    public let compactTitle: ValueSpec
    public let compactSubtitle: ValueSpec?

    public init(columns: [ColumnDefinition], compactTitle: ValueSpec, compactSubtitle: ValueSpec?) {
        self.columns = columns
        self.compactTitle = compactTitle
        self.compactSubtitle = compactSubtitle
    }
}

/// One column, or for `forEach` one column per name of a numbers field's labels (SwiftUI's
/// `TableColumnForEach`: a track's channels).
public enum ColumnDefinition: Sendable, Hashable {
    case value(id: String, title: LocalizedText, value: ValueSpec, alignment: ColumnAlignment)
    /// `percent` percent of a money field, rounded half away from zero in minor units (the seed's
    /// tip columns: 115 is the price with a 15 % tip).
    case percent(id: String, title: LocalizedText, field: Int, percent: Int64)
    /// A numbers field with labels: a column per label, id the label's id, title its name.
    case forEach(field: Int)
    /// Whole days from the date (or date-time) field `from` to the field `to`, `to` minus `from`
    /// (negative when overdue), shown as "5 days" in the request's language (a ticket's SLA).
    case days(id: String, title: LocalizedText, from: Int, to: Int)
}

/// What a list shows when it has nothing: SwiftUI's `ContentUnavailableView`. In a search's
/// empty state, `{query}` stands for the (trimmed, shortened) search text; in a filtered
/// list's, `{filters}` for the filters (`EmptyStateDefinition.state(in:query:filters:)`).
public struct EmptyStateDefinition: Sendable, Hashable {
    public let title: LocalizedText
    public let description: LocalizedText
    public let image: String

    public init(title: LocalizedText, description: LocalizedText, image: String) {
        self.title = title
        self.description = description
        self.image = image
    }
}

/// Whether a page says how many rows its list holds (`count`): not at all, an estimate scaled
/// from a bounded sample of the collection (a small collection is counted), or an exact count
/// up to a bound (above it, an estimate).
public enum ListCount: String, Sendable, Hashable, CaseIterable {
    case none, estimated, exact

    /// The most rows counted one by one: beyond it the total is an estimate. `estimated` counts a
    /// collection of at most this many rows, and samples a larger one.
    public var bound: Int {
        switch self {
        case .none: 0
        case .estimated: 1_000
        case .exact: 10_000
        }
    }
}

/// The page sizes `limit` accepts.
public struct ListLimits: Sendable, Hashable {
    public let defaultLimit: Int
    public let maxLimit: Int

    public init(defaultLimit: Int = 50, maxLimit: Int = 200) {
        self.defaultLimit = defaultLimit
        self.maxLimit = maxLimit
    }
}

/// A child collection's parent: items are listed and addressed under the parent item
/// (`/v1/tracks/{id}/samples`), and go when it goes.
public struct ParentDefinition: Sendable, Hashable {
    public let collection: String
    /// The reference field that names the parent item.
    public let field: Int

    public init(collection: String, field: Int) {
        self.collection = collection
        self.field = field
    }
}

/// An outline: each item of the collection names its parent item in the same collection
/// through an optional reference (`tree: {parent: field}`; none: a root). Rows carry their
/// number of children and a link to them, details their ancestors, and no write makes a cycle.
public struct TreeDefinition: Sendable, Hashable {
    /// The reference field (to the collection itself) that names the parent node.
    public let field: Int

    public init(field: Int) {
        self.field = field
    }
}
