import Domain

/// How many rows a list holds: counted, or estimated where counting would cost more than it is worth.
public struct ListTotal: Sendable, Hashable {
    public var value: Int64
    public var exact: Bool

    public init(value: Int64, exact: Bool) {
        self.value = value
        self.exact = exact
    }
}

/// A list's total and the totals of its sections, by section id (as pages and feeds name a
/// section: the value of the field the list is sectioned by, "" for none).
public struct ListCounts: Sendable, Hashable {
    public var total: ListTotal
    public var sections: [String: ListTotal]

    public init(total: ListTotal, sections: [String: ListTotal] = [:]) {
        self.total = total
        self.sections = sections
    }
}

/// Which sections a count reads besides the total.
public enum SectionsCounted: Sendable, Hashable {
    case none
    /// The sections a page showed, by their keyset prefix (`PageEnd.sections`).
    case shown([[SortValue]])
    /// Every section of the list, when the list is within the count's bound (a feed, which
    /// cannot know which sections its client shows); else none.
    case all
}
