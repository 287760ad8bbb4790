/// Where a page's statement puts what its rows read: the stored slots' value columns, then the
/// folded title and subtitle, an outline row's number of children, then the order's keys (`CatalogPageQuery.selectList`).
///
/// A page that reads every slot selects the table's columns as they stand
/// (`CatalogTable.selectList`); a page that reads some (`CatalogQuery.reads`) selects those
/// alone, with no NULL in the place of the others: every column selected, a NULL too, costs the
/// database its output and the reader its parsing (ded7f2b).
struct RowLayout {
    /// Per stored slot, the position of its (first) value column; nil: not selected.
    let slotColumns: [Int?]
    /// The folded title's position, the subtitle's after it; nil: not selected.
    let searchKeys: Int?
    /// An outline row's number of children (`CatalogTable.childCountSQL`), after the folded
    /// title and subtitle; nil: not selected (no outline).
    let childCount: Int?
    /// How many columns come before the order's keys.
    let count: Int
    /// Whether every column of the table is selected, in its place: a row then decodes as a whole item.
    let isWhole: Bool

    /// The layout of `table.selectList` (`slots` nil), or of the columns of `slots` and, with
    /// `searchKeys`, the folded title and subtitle.
    init(_ table: CatalogTable, reading slots: [Int]?, searchKeys readsSearchKeys: Bool) {
        let counts = table.childCountSQL != nil
        guard let slots else {
            slotColumns = table.slotColumns
            searchKeys = table.columns.count
            childCount = counts ? 2 + table.columns.count : nil
            count = 2 + table.columns.count + (counts ? 1 : 0)
            isWhole = true
            return
        }
        var columns = [Int?](repeating: nil, count: table.valueColumns.count)
        var next = 2
        for slot in slots where columns.indices.contains(slot) {
            columns[slot] = next
            next += table.valueColumns[slot].count
        }
        slotColumns = columns
        searchKeys = readsSearchKeys ? next : nil
        next += readsSearchKeys ? 2 : 0
        childCount = counts ? next : nil
        count = next + (counts ? 1 : 0)
        isWhole = false
    }

    /// The columns in their places on alias `t`: id, version, the slots' value columns, the
    /// folded title and subtitle.
    func selectList(_ table: CatalogTable) -> String {
        guard !isWhole else { return table.selectList + (table.childCountSQL.map { ", " + $0 } ?? "") }
        var list = ["t.\"id\"", "t.\"version\""]
        for (slot, position) in slotColumns.enumerated() where position != nil {
            list += table.valueColumns[slot].map { "t.\(CatalogTable.quote($0))" }
        }
        if searchKeys != nil { list += ["t.\"title_key\"", "t.\"subtitle_key\""] }
        if let count = table.childCountSQL { list.append(count) }
        return list.joined(separator: ", ")
    }
}
