import Domain

/// The SQL texts of a table's page statements (`CatalogPageQuery.seekStatements`), kept by
/// what they are made of.
///
/// A page's statements differ from the last page's of the same list only in their arguments,
/// yet building their texts (the select list, the conditions, the order, one statement per key
/// prefix of a position) is a large share of an uncached page. Conditions hold
/// placeholders only (values are arguments; a list of keys is one `json_each(?)`), so the shapes
/// are few; the memo empties itself past 256 of them all the same.
typealias SeekTexts = BoundedMemo<SeekTextShape, [String]>

struct SeekTextShape: Hashable, Sendable {
    let columns: String?
    let reads: [Int]?
    /// The rows' folded title and subtitle are selected (`RowLayout.searchKeys`).
    let searchKeys: Bool
    /// The join of the rows' section items (`CatalogPageQuery.joinSectionItems`).
    let joined: String?
    /// The statements as one (`CatalogPageQuery.seekStatement`), with this LIMIT written in.
    let combined: Bool
    let limit: Int?
    /// A search's bounded walk, in rows (`CatalogPageQuery.boundedSearchStatement`).
    let walk: Int?
    let conditions: [String]
    let keys: [CatalogTable.OrderColumn]
    let descending: [Bool]
    let readsByKey: Bool
    let positioned: Bool
}
