import GRDB

/// Plans for orders by the title (`CatalogTable.titleOrderColumn`), whose index holds the
/// searched texts and, in an ordered table, whose order the search index's rowid follows.
extension CatalogPageQuery {
    /// The title key column when the order starts with it (no sections before it), else nil.
    var titleOrderColumn: String? {
        guard let first = keys.first?.column.column, first == table.titleOrderColumn else { return nil }
        return first
    }
}
