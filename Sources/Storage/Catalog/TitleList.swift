import GRDB

/// The distinct title keys of a collection, in the order of its index by the title (bytes, as
/// SQLite compares text), read with one seek of the index per title (a loose index scan).
///
/// A search whose matches are whole runs of one title (`CatalogStore+TitleGroups.swift`) finds
/// the matching titles here instead of in the rows. The store keeps one list per collection
/// with the version it holds every title of (`CatalogStore.titleLists`), and brings it up to
/// a later version with the titles of the items changed since. It may hold titles no row has
/// any more (their runs are empty), never miss one a row has.
struct TitleList: Sendable, Equatable {
    private(set) var titles: [String]

    /// Adds the titles it does not hold yet, in their place in the order.
    mutating func add(_ new: [String]) {
        for title in new {
            let index = firstIndex(notBefore: title)
            if index < titles.count && titles[index].utf8.elementsEqual(title.utf8) { continue }
            titles.insert(title, at: index)
        }
    }

    /// The list, or nil when the collection holds more than `limit` distinct titles (then they
    /// do not repeat enough for the list to pay).
    static func read(_ table: CatalogTable, column: String, limit: Int, _ db: Database) throws -> TitleList? {
        var titles: [String] = []
        var ended = false
        try db.each(Self.sql(table, column: column), [limit.databaseValue]) { row in
            guard let title = row.text(0) else {
                ended = true
                return false
            }
            titles.append(title)
            return true
        }
        return ended ? TitleList(titles: titles) : nil
    }

    /// The loose scan: every distinct title in order, then NULL at the end of the index; stops
    /// after `?1` titles without the NULL when there are more.
    static func sql(_ table: CatalogTable, column: String) -> String {
        let key = "t.\(CatalogTable.quote(column))"
        let rows = "\(CatalogTable.quote(table.name)) AS t"
        return """
            WITH RECURSIVE runs(title, step) AS (
                SELECT (SELECT \(key) FROM \(rows) ORDER BY \(key) LIMIT 1), 1
                UNION ALL
                SELECT (SELECT \(key) FROM \(rows) WHERE \(key) > runs.title ORDER BY \(key) LIMIT 1), step + 1
                FROM runs WHERE runs.title IS NOT NULL AND step <= ?1
            )
            SELECT title FROM runs
            """
    }

    /// The indices of the titles from `position` on, in the order's direction: from the first
    /// title at or after it (at or before it, `descending`); all of them without a position.
    func indices(from position: String?, descending: Bool) -> [Int] {
        guard let position else { return descending ? Array(titles.indices.reversed()) : Array(titles.indices) }
        let low = firstIndex(notBefore: position)
        if !descending { return Array(low..<titles.count) }
        let last = low < titles.count && titles[low].utf8.elementsEqual(position.utf8) ? low : low - 1
        return last < 0 ? [] : Array((0...last).reversed())
    }

    /// The index of the first title that does not sort before `text` (the count when none).
    private func firstIndex(notBefore text: String) -> Int {
        var low = 0
        var high = titles.count
        while low < high {
            let middle = (low + high) / 2
            if CatalogPageQuery.precedes(titles[middle], text) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
