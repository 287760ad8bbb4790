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
    /// Each title's byte pairs (`Self.pairs`): a search skips the titles that lack one of its
    /// own without comparing texts, as titles that repeat little can be tens of thousands.
    private var pairs: [UInt64]

    init(titles: [String]) {
        self.titles = titles
        pairs = titles.map(Self.pairs)
    }

    /// Adds the titles it does not hold yet, in their place in the order: one by one when they
    /// are few, else appended and the whole list sorted once (thousands of inserts into tens of
    /// thousands of titles would move hundreds of millions).
    mutating func add(_ new: [String]) {
        guard new.count > 64 else {
            for title in new { insert(title) }
            return
        }
        var seen = Set(titles.map { Array($0.utf8) })
        let added = new.filter { seen.insert(Array($0.utf8)).inserted }
        guard !added.isEmpty else { return }
        titles = (titles + added).sorted { CatalogPageQuery.precedes($0, $1) }
        pairs = titles.map(Self.pairs)
    }

    private mutating func insert(_ title: String) {
        let index = firstIndex(notBefore: title)
        if index < titles.count && titles[index].utf8.elementsEqual(title.utf8) { return }
        titles.insert(title, at: index)
        pairs.insert(Self.pairs(title), at: index)
    }

    /// Whether the title at `index` can contain a text whose `Self.pairs` are `wanted`: false
    /// only when it cannot (it lacks one of the text's byte pairs).
    func mayContain(at index: Int, pairs wanted: UInt64) -> Bool {
        pairs[index] & wanted == wanted
    }

    /// A text's adjacent byte pairs, each hashed to one of 64 bits: a text's are among those
    /// of any text containing it. A text of one byte has none (every title may contain it).
    static func pairs(_ text: String) -> UInt64 {
        var bits: UInt64 = 0
        var previous: UInt8?
        for byte in text.utf8 {
            if let previous {
                let pair = UInt64(previous) << 8 | UInt64(byte)
                bits |= 1 << ((pair &* 0x9E37_79B9_7F4A_7C15) >> 58)
            }
            previous = byte
        }
        return bits
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
