import Domain
import GRDB

/// The SQL of one page request: its total order, filters and keyset position, checked against
/// the collection before anything runs.
///
/// Paging is keyset only. With `after`, the rows that follow a position `(v0, …, vn)` in the
/// order `(k0, …, kn)` (`kn` is the id, always ascending) are, in order:
///
///     k0 = v0 AND … AND k(n-1) = v(n-1) AND kn > vn
///     k0 = v0 AND … AND k(n-1) after v(n-1)
///     …
///     k0 after v0
///
/// Each of these is an equality prefix plus one range on an index whose columns follow the
/// order's directions, so SQLite seeks straight to the position. Running them one after the
/// other until the page is full costs the same on page 1 and page 10,000 — unlike one `OR`
/// (which SQLite cannot turn into a seek for mixed directions) or a row-value comparison
/// (which needs every key in the same direction).
struct PageQuery {
    let table: CollectionTable
    let keys: [OrderKey]
    let limit: Int
    /// Filters as SQL over the alias `t`, with their arguments.
    private(set) var filters: [String] = []
    private(set) var filterArguments: [DatabaseValue] = []
    /// The folded search text, nil without a search.
    let search: String?
    /// The keyset position, one value per key; nil for the first page.
    let after: [DatabaseValue]?

    struct OrderKey {
        let column: CollectionTable.OrderColumn
        let descending: Bool

        var sql: String { "t.\(column.column)" + (descending ? " DESC" : "") }
        var after: String { descending ? "<" : ">" }
    }

    init(_ query: ListQuery) throws(StoreError) {
        table = CollectionTable.of(query.collection)
        limit = min(max(query.limit, 1), 1_000)
        search = SearchKeys.query(query.search)
        if search != nil && table.searchTable == nil {
            throw StoreError.unavailable("\(table.name) cannot be searched")
        }

        var keys: [OrderKey] = []
        if query.groupByDepartment {
            guard query.collection == .people else { throw StoreError.unavailable("only people group by department") }
            keys += CollectionTable.sectionColumns.map { OrderKey(column: $0, descending: false) }
        }
        for key in query.sort {
            guard let column = table.sortColumns[key.field] else {
                throw StoreError.unavailable("\(table.name) cannot be sorted by \"\(key.field)\"")
            }
            keys.append(OrderKey(column: column, descending: key.descending))
        }
        keys.append(OrderKey(column: .init(column: "id", isText: true), descending: false))
        self.keys = keys

        if let after = query.after {
            // The API signs the cursors it hands out, so a position that does not fit this
            // order is a bug, reported as such rather than trusted.
            guard after.count == keys.count else {
                throw StoreError.unavailable("keyset position has \(after.count) values, the order has \(keys.count) keys")
            }
            self.after = try zip(after, keys).map { (value, key) throws(StoreError) in
                switch (value, key.column.isText) {
                case (.text(let text), true): return text.databaseValue
                case (.integer(let integer), false): return integer.databaseValue
                default: throw StoreError.unavailable("keyset position value \(value) does not fit \(key.column.column)")
                }
            }
        } else {
            self.after = nil
        }

        if query.collection == .samples {
            guard let parent = query.parent else { throw StoreError.unavailable("samples are listed per track") }
            addFilter("t.track_id = ?", parent.rawValue)
        } else if query.parent != nil {
            throw StoreError.unavailable("\(table.name) have no parent")
        }
        for filter in query.filters {
            switch (filter, query.collection) {
            case (.department(let id), .people): addFilter("t.department_id = ?", id.rawValue)
            case (.minPrice(let minor), .products): addFilter("t.price_minor >= ?", minor)
            case (.maxPrice(let minor), .products): addFilter("t.price_minor <= ?", minor)
            default: throw StoreError.unavailable("\(table.name) have no filter \(filter)")
            }
        }
    }

    private mutating func addFilter(_ sql: String, _ values: any DatabaseValueConvertible...) {
        filters.append(sql)
        filterArguments += values.map(\.databaseValue)
    }

    /// Keeps only rows whose folded title or subtitle contains `text` (a scan, no index).
    mutating func addSubstringFilter(_ text: String) {
        addFilter(Self.substringCondition, text, text)
    }

    private static let substringCondition = "(instr(t.title_key, ?) > 0 OR instr(t.subtitle_key, ?) > 0)"

    /// The columns selected: the item's, then the order keys but the id (for `nextAfter`).
    var selectList: String {
        ([table.selectList] + keys.dropLast().map { "t.\($0.column.column)" }).joined(separator: ", ")
    }

    var orderBy: String { keys.map(\.sql).joined(separator: ", ") }

    /// The statements that walk the index from the position, in order; each takes a LIMIT last.
    func seekStatements() -> [(sql: String, arguments: [DatabaseValue])] {
        let head = "SELECT \(selectList) FROM \(table.name) AS t"
        guard let after else {
            return [(Self.select(head, filters, orderBy), filterArguments)]
        }
        return keys.indices.reversed().map { index in
            var conditions = filters
            var arguments = filterArguments
            for prefix in 0..<index {
                conditions.append("t.\(keys[prefix].column.column) = ?")
                arguments.append(after[prefix])
            }
            conditions.append("t.\(keys[index].column.column) \(keys[index].after) ?")
            arguments.append(after[index])
            return (Self.select(head, conditions, orderBy), arguments)
        }
    }

    /// One statement over the rows of a full-text match, sorted after the match: for searches
    /// that match few rows, where walking the sort index would read most of the table.
    func searchStatement(matches: SearchMatches) -> (sql: String, arguments: [DatabaseValue]) {
        let keys = matches.keys(in: table)
        let head = "SELECT \(selectList) FROM (\(keys.sql)) AS m CROSS JOIN \(table.name) AS t ON t.pk = m.pk"
        var arguments = keys.arguments + filterArguments
        var conditions = filters
        if let after {
            conditions.append(Self.positionCondition(self.keys[...], after[...], &arguments))
        }
        return (Self.select(head, conditions, orderBy), arguments)
    }

    /// One statement that walks the sort index keeping rows among the full-text matches that
    /// contain `text`: for searches with many matches clustered later in the order. SQLite builds
    /// the set of matching keys once and tests each index entry against it before reading the
    /// row; the unary `+` keeps it from driving the query from that set instead (which would sort
    /// every match). The position is one condition with a leading bound on the first key, so the
    /// walk starts at the position's first key and skips what precedes it in that key's ties.
    ///
    /// Not for orders that start with the title: their index entries hold both searched columns,
    /// and testing the text there costs less than building the set (see `SQLiteStore.searchPage`).
    func membershipStatement(matches: SearchMatches, text: String) -> (sql: String, arguments: [DatabaseValue]) {
        let head = "SELECT \(selectList) FROM \(table.name) AS t"
        var conditions = filters
        var arguments = filterArguments
        let set = matches.keys(in: table)
        conditions.append("+t.pk IN (\(set.sql)) AND \(Self.substringCondition)")
        arguments += set.arguments + [text.databaseValue, text.databaseValue]
        if let after, let first = keys.first, let value = after.first {
            conditions.append("t.\(first.column.column) \(first.descending ? "<=" : ">=") ?")
            arguments.append(value)
            conditions.append(Self.positionCondition(keys[...], after[...], &arguments))
        }
        return (Self.select(head, conditions, orderBy), arguments)
    }

    /// Whether the order starts with the folded title, where titles that start with a search
    /// text form one range of the index (see `addTitlePrefixFilter`), and whose index entries
    /// hold the subtitle too (`StoreSchema.titleIndexes`).
    var startsWithTitle: Bool { keys.first?.column.column == "title_key" }

    /// Keeps only rows whose folded title starts with `text`: a range of the title index. Every
    /// string with that prefix sorts between the text and the text followed by byte 0xFF, which
    /// no UTF-8 string contains.
    mutating func addTitlePrefixFilter(_ text: String) {
        addFilter(Self.titlePrefixCondition, text, text)
    }

    /// That range on table alias `t`, with the prefix bound twice.
    static let titlePrefixCondition = "t.title_key >= ? AND t.title_key < CAST(? || x'FF' AS TEXT)"

    /// Whether position `a` comes before position `b` in this order (both from `position(of:id:)`);
    /// text compares bytewise, as SQLite's BINARY collation does.
    func precedes(_ a: [SortValue], _ b: [SortValue]) -> Bool {
        for (key, (left, right)) in zip(keys, zip(a, b)) where left != right {
            let less: Bool
            switch (left, right) {
            case (.text(let left), .text(let right)): less = left.utf8.lexicographicallyPrecedes(right.utf8)
            case (.integer(let left), .integer(let right)): less = left < right
            default: less = false
            }
            return key.descending ? !less : less
        }
        return false
    }

    /// `(k0 after v0 OR (k0 = v0 AND (…)))`: the rows after a position, as one condition.
    private static func positionCondition(_ keys: ArraySlice<OrderKey>, _ values: ArraySlice<DatabaseValue>, _ arguments: inout [DatabaseValue])
        -> String
    {
        guard let key = keys.first, let value = values.first else { return "0" }
        let column = "t.\(key.column.column)"
        arguments.append(value)
        if keys.count == 1 { return "\(column) \(key.after) ?" }
        arguments.append(value)
        let rest = positionCondition(keys.dropFirst(), values.dropFirst(), &arguments)
        return "(\(column) \(key.after) ? OR (\(column) = ? AND \(rest)))"
    }

    private static func select(_ head: String, _ conditions: [String], _ orderBy: String) -> String {
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return head + whereClause + " ORDER BY " + orderBy + " LIMIT ?"
    }

    /// The keyset position of a row selected with `selectList`: its order keys, then its id.
    func position(of row: Row, id: EntityID) -> [SortValue] {
        var values: [SortValue] = []
        values.reserveCapacity(keys.count)
        let first = 2 + table.columns.count
        for (offset, key) in keys.dropLast().enumerated() {
            if key.column.isText {
                values.append(.text(row[first + offset] as String? ?? ""))
            } else {
                values.append(.integer(row[first + offset] as Int64? ?? 0))
            }
        }
        values.append(.text(id.rawValue))
        return values
    }
}
