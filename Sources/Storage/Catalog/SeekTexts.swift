/// The SQL texts of a table's page statements (`CatalogPageQuery.seekStatements`), kept by
/// what they are made of.
///
/// A page's statements differ from the last page's of the same list only in their arguments,
/// yet building their texts (the select list, the conditions, the order, one statement per key
/// prefix of a position) cost ~29,000 instructions of every uncached page. Conditions hold
/// placeholders only (values are arguments; a list of keys is one `json_each(?)`), so the shapes
/// are few; the memo empties itself past `limit` of them all the same.
final class SeekTexts: Sendable {
    struct Shape: Hashable, Sendable {
        let columns: String?
        let conditions: [String]
        let keys: [CatalogTable.OrderColumn]
        let descending: [Bool]
        let readsByKey: Bool
        let positioned: Bool
    }

    static let limit = 256
    private let kept = Locked<[Shape: [String]]>([:])

    /// The texts for `shape`: kept, or made by `make` and kept.
    func texts(_ shape: Shape, make: () -> [String]) -> [String] {
        if let found = kept.withLock({ $0[shape] }) { return found }
        let made = make()
        kept.withLock { kept in
            if kept.count >= Self.limit { kept.removeAll(keepingCapacity: true) }
            kept[shape] = made
        }
        return made
    }

    /// How many shapes are kept (for tests).
    var count: Int { kept.withLock { $0.count } }
}
