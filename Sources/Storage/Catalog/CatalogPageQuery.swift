import Domain
import GRDB

/// The SQL of one page of a catalog collection: its total order (sections, sorts, id), its
/// conditions and keyset position, checked against the definition before anything runs.
///
/// Keyset paging: for a position `(v0, …, vn)` in the order
/// `(k0, …, kn)`, one statement per key prefix (`k0 = v0 AND … AND ki after vi`), run in turn
/// until the page is full, so page 10,000 costs what page 1 costs.
struct CatalogPageQuery {
    let table: CatalogTable
    let keys: [OrderKey]
    let limit: Int
    /// Where the rows hold what they read: the stored slots of `CatalogQuery.reads` (nil: every
    /// one, a whole item), and the folded title and subtitle for a whole item and a search,
    /// which SQLite may walk checking them (`CatalogStore.readRows`).
    let layout: RowLayout
    /// The stored slots the rows read (`CatalogQuery.reads`); nil: every one.
    let reads: [Int]?
    /// How many order keys lead with the section (0: none collected): the prefix each row's
    /// section is named by in `PageEnd.sections`.
    let sectionPrefix: Int
    private(set) var conditions: [String] = []
    private(set) var arguments: [DatabaseValue] = []
    /// The keyset position (nil: from the start); a restriction to a range may drop it.
    var after: [DatabaseValue]?
    /// The table is read without its indexes (`NOT INDEXED`), driven by a list of keys.
    private(set) var readsByKey = false
    /// The item each row's section reference points to, selected after the row's columns
    /// (`joinSectionItems`): its table, and the index of its first column.
    private(set) var joined: (table: CatalogTable, offset: Int)?
    /// The join of `joined`, after the FROM of every statement.
    private var joinClause: String?

    struct OrderKey {
        let column: CatalogTable.OrderColumn
        let descending: Bool

        var sql: String { "t.\(CatalogTable.quote(column.column))" + (descending ? " DESC" : "") }
    }

    /// The title key column (`CatalogTable.titleOrderColumn`) when the order starts with it (no
    /// sections before it), else nil: its index holds the searched texts, and in an ordered table
    /// the search index's rowid follows its order.
    var titleOrderColumn: String? {
        guard let first = keys.first?.column.column, first == table.titleOrderColumn else { return nil }
        return first
    }

    init(_ query: CatalogQuery, table: CatalogTable) throws(StoreError) {
        self.table = table
        let collection = table.collection
        limit = min(max(query.limit, 1), 1_000)
        reads = query.reads
        sectionPrefix = query.sections && query.collectsSections ? table.sectionColumns.count : 0
        layout = Self.layout(query, table)
        var keys: [OrderKey] = []
        if query.sections {
            guard !table.sectionColumns.isEmpty else { throw StoreError.invariant("\(collection.name) has no sections") }
            keys += table.sectionColumns.map { OrderKey(column: $0, descending: false) }
        }
        for key in query.sort {
            guard let columns = table.orderColumns(ofSort: key.field) else {
                throw StoreError.invariant("\(collection.name) cannot be sorted by \"\(key.field)\"")
            }
            keys += columns.map { OrderKey(column: $0, descending: key.descending) }
        }
        keys.append(OrderKey(column: .init(column: "id", isText: true), descending: false))
        self.keys = keys
        if let after = query.after {
            // Cursors are signed by the API, so a position that does not fit is a bug, not input.
            guard after.count == keys.count else {
                throw StoreError.invariant("keyset position has \(after.count) values, the order has \(keys.count) keys")
            }
            self.after = try zip(after, keys).map { (value, key) throws(StoreError) in
                switch (value, key.column.isText) {
                case (.text(let text), true): return text.databaseValue
                case (.integer(let integer), false): return integer.databaseValue
                default: throw StoreError.invariant("keyset position value \(value) does not fit \(key.column.column)")
                }
            }
        } else {
            self.after = nil
        }
        switch (query.parent, table.parentColumn) {
        case (let parent?, let column?): add("t.\(CatalogTable.quote(column)) = ?", [parent.rawValue.databaseValue])
        case (nil, nil): break
        case (nil, _?): throw StoreError.invariant("\(collection.name) are listed under their parent")
        case (_?, nil): throw StoreError.invariant("\(collection.name) have no parent")
        }
        switch (query.level, table.treeColumn) {
        case (.roots?, let column?): add("t.\(CatalogTable.quote(column)) IS NULL", [])
        case (.children(let parent)?, let column?): add("t.\(CatalogTable.quote(column)) = ?", [parent.rawValue.databaseValue])
        case (nil, _): break
        case (_?, nil): throw StoreError.invariant("\(collection.name) is no outline")
        }
        for condition in query.conditions { try add(condition) }
        if let ids = query.ids {
            add("t.\"id\" IN (" + repeatElement("?", count: ids.count).joined(separator: ", ") + ")", ids.map(\.rawValue.databaseValue))
        }
        if query.search != nil, table.searchTable == nil { throw StoreError.invariant("\(collection.name) cannot be searched") }
    }

    /// Rows whose folded title or subtitle contains `text`, checked row by row. The title key is
    /// read from the title's sort key when there is one (the same text): an index by the title
    /// holds it and the subtitle key, so SQLite checks them there without reading the row.
    /// A NULL subtitle makes its `instr` NULL, which the OR treats as false: no `coalesce`, a
    /// function call per index entry a walk reads.
    mutating func addSubstringFilter(_ text: String) {
        let title = CatalogTable.quote(table.titleOrderColumn ?? "title_key")
        add("(instr(t.\(title), ?) > 0 OR instr(t.subtitle_key, ?) > 0)", [text.databaseValue, text.databaseValue])
    }

    /// Rows among the keys `sql` selects, which SQLite reads once and probes while it walks the order.
    mutating func addMatches(_ sql: String, _ values: [DatabaseValue]) {
        add("t.pk IN (\(sql))", values)
    }

    /// Rows among `keys`, read by key and sorted rather than found by walking an index: what a
    /// few thousand matches cost least as, wherever in the order they are.
    mutating func addKeys(_ keys: [Int64]) {
        add("t.pk IN (SELECT value FROM json_each(?))", [("[" + keys.map(String.init).joined(separator: ",") + "]").databaseValue])
        readsByKey = true
    }

    /// Where the rows of `query`'s pages hold what they read (`layout`).
    static func layout(_ query: CatalogQuery, _ table: CatalogTable) -> RowLayout {
        RowLayout(table, reading: query.reads, searchKeys: query.reads == nil || folded(query.search) != nil)
    }

    /// The trimmed, folded search text; nil when blank.
    static func folded(_ text: String?) -> String? {
        guard let text else { return nil }
        let folded = searchFolded(text.trimmingCharacters(in: .whitespacesAndNewlines))
        return folded.isEmpty ? nil : folded
    }

    mutating func add(_ sql: String, _ values: [DatabaseValue]) {
        conditions.append(sql)
        arguments += values
    }

    private mutating func add(_ condition: FieldCondition) throws(StoreError) {
        let collection = table.collection
        guard collection.fields.indices.contains(condition.field), let slot = collection.fields[condition.field].slot,
            let first = condition.values.first
        else { throw StoreError.invariant("a filter of \(collection.name) names no stored field or no value") }
        let columns = table.valueColumns[slot].map { "t.\(CatalogTable.quote($0))" }
        switch condition.operation {
        case .equals:
            try add(comparison: "=", first, columns)
        case .oneOf:
            var parts: [String] = []
            var values: [DatabaseValue] = []
            for value in condition.values {
                let (sql, bound) = try Self.comparison("=", value, columns)
                parts.append(sql)
                values += bound
            }
            add("(" + parts.joined(separator: " OR ") + ")", values)
        case .atLeast: try add(comparison: ">=", first, columns)
        case .atMost: try add(comparison: "<=", first, columns)
        }
    }

    private mutating func add(comparison: String, _ value: FieldValue, _ columns: [String]) throws(StoreError) {
        let (sql, values) = try Self.comparison(comparison, value, columns)
        add(sql, values)
    }

    /// `column op ?`; money compares within its currency: `currency = ? AND amount op ?`.
    private static func comparison(_ op: String, _ value: FieldValue, _ columns: [String]) throws(StoreError) -> (String, [DatabaseValue]) {
        switch value {
        case .text(let text): return ("\(columns[0]) \(op) ?", [text.databaseValue])
        case .integer(let integer): return ("\(columns[0]) \(op) ?", [integer.databaseValue])
        case .boolean(let flag): return ("\(columns[0]) \(op) ?", [(flag ? 1 : 0).databaseValue])
        case .reference(let id): return ("\(columns[0]) \(op) ?", [id.rawValue.databaseValue])
        case .money(let money) where columns.count == 2:
            return ("(\(columns[1]) = ? AND \(columns[0]) \(op) ?)", [money.currency.databaseValue, money.minorUnits.databaseValue])
        default: throw StoreError.invariant("a filter value \(value) cannot be compared")
        }
    }

    var selectList: String {
        ([layout.selectList(table)] + keys.dropLast().map { "t.\(CatalogTable.quote($0.column.column))" }
            + (joined.map { [$0.table.itemSelectList(on: "r")] } ?? [])).joined(separator: ", ")
    }

    /// Selects, with each row, the item its section reference points to (none: NULLs), so that
    /// a sectioned page whose headers show that item is one statement. For a database a round
    /// trip away (PostgreSQL): a header's item read on its own was a round trip, and the page
    /// then needed a transaction (two more) for the items to be of the page's snapshot. SQLite,
    /// in the process, reads a header's item by its key for less than a join costs each row.
    mutating func joinSectionItems(_ tables: [String: CatalogTable]) {
        let collection = table.collection
        guard let sections = collection.sections, collection.fields.indices.contains(sections.field),
            let slot = collection.fields[sections.field].slot, let target = collection.fields[sections.field].type.referencedCollection,
            let targetTable = tables[target], table.valueColumns.indices.contains(slot), let column = table.valueColumns[slot].first
        else { return }
        joined = (targetTable, layout.count + keys.count - 1)
        joinClause = " LEFT JOIN \(CatalogTable.quote(targetTable.name)) AS r ON r.\"id\" = t.\(CatalogTable.quote(column))"
    }

    var orderBy: String { keys.map(\.sql).joined(separator: ", ") }

    /// The statements that walk the order from the position; each takes a LIMIT last.
    /// `columns`: select these instead of a page's columns (a scan of the order's index for
    /// keys, `t.pk`, or for texts the index holds).
    /// The texts are the table's kept ones for this shape (`SeekTexts`): only the arguments
    /// are made per page.
    func seekStatements(selecting columns: String? = nil) -> [(sql: String, arguments: [DatabaseValue])] {
        let texts = table.seekTexts.value(for: shape(selecting: columns)) { makeSeekStatements(selecting: columns).map(\.sql) }
        guard let after else { return [(texts[0], arguments)] }
        // keysetStatements' order: the longest prefix first, each with the position through its key.
        return zip(texts, keys.indices.reversed()).map { text, index in (text, arguments + after[...index]) }
    }

    /// The page as one statement, its LIMIT (a page and one more row) in its text: an order of
    /// one direction (every key ascending, as the id is) seeks past the position with one row
    /// comparison, `(k0, …, id) > (v0, …, vn)`, one range of the order's index; another order
    /// takes the union of `seekStatements` in the page's order. What a database a round trip
    /// away reads a page with (PostgreSQL, which merges the union's index scans in order);
    /// SQLite, in the process, steps the statements in turn and stops at a full page.
    ///
    /// The LIMIT is written, not bound: bound, PostgreSQL costed a generic plan for a tenth of
    /// the table and planned the statement anew on every run.
    ///
    /// `rows`: how many rows it reads at most (a page and one more by default).
    func seekStatement(rows: Int? = nil) -> (sql: String, arguments: [DatabaseValue]) {
        let wanted = rows ?? limit + 1
        let oneDirection = keys.allSatisfy { !$0.descending }
        let text = table.seekTexts.value(for: shape(selecting: nil, combined: true, limit: wanted)) {
            if let after, oneDirection {
                let columns = keys.map { "t.\(CatalogTable.quote($0.column.column))" }.joined(separator: ", ")
                let position = "(\(columns)) > (" + repeatElement("?", count: after.count).joined(separator: ", ") + ")"
                return [Self.limiting(Self.select(seekHead(), conditions + [position], orderBy + " LIMIT ?"), wanted)]
            }
            let statements = seekStatements()
            guard statements.count > 1 else { return [Self.limiting(statements[0].sql, wanted)] }
            return [union(statements.map { Self.limiting($0.sql, wanted) }, limit: wanted)]
        }
        guard let after else { return (text[0], arguments) }
        return (text[0], oneDirection ? arguments + after : seekStatements().flatMap(\.arguments))
    }

    /// `text`, which ends in `LIMIT ?`, with `limit` in place of its placeholder.
    static func limiting(_ text: String, _ limit: Int) -> String {
        String(text.dropLast()) + String(limit)
    }

    /// `branches` (each ending in `ORDER BY … LIMIT n`) as one statement in the same order: the
    /// order by the select list's positions of the keys (`selectList` ends with them, after the
    /// row's columns; the id is the first column).
    private func union(_ branches: [String], limit: Int) -> String {
        branches.map { "(" + $0 + ")" }.joined(separator: " UNION ALL ") + " ORDER BY " + orderByPositions + " LIMIT \(limit)"
    }

    /// The page's order by the select list's positions of its keys (`selectList` ends with them,
    /// after the row's columns; the id is the first column): an order of rows selected by `selectList`.
    var orderByPositions: String {
        let first = layout.count + 1
        let positions = keys.dropLast().enumerated().map { offset, key in "\(first + offset)" + (key.descending ? " DESC" : "") }
        return (positions + ["1"]).joined(separator: ", ")
    }

    func shape(selecting columns: String?, combined: Bool = false, limit: Int? = nil, walk: Int? = nil) -> SeekTextShape {
        SeekTextShape(
            columns: columns, reads: columns == nil ? reads : nil, searchKeys: columns == nil && layout.searchKeys != nil,
            joined: columns == nil ? joinClause : nil, combined: combined, limit: limit, walk: walk,
            conditions: conditions,
            keys: keys.map(\.column), descending: keys.map(\.descending), readsByKey: readsByKey, positioned: after != nil)
    }

    /// `seekStatements` made whole, texts and arguments.
    func makeSeekStatements(selecting columns: String? = nil) -> [(sql: String, arguments: [DatabaseValue])] {
        let head = seekHead(selecting: columns)
        guard let after else { return [(Self.select(head, conditions, orderBy + " LIMIT ?"), arguments)] }
        return keysetStatements(head: head, position: after, backwards: false, tail: orderBy + " LIMIT ?")
    }

    /// `SELECT … FROM table AS t`, with the section items' join when it selects a page's columns.
    func seekHead(selecting columns: String? = nil) -> String {
        "SELECT \(columns ?? selectList) FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "")
            + (columns == nil ? joinClause ?? "" : "")
    }

    /// One statement per key prefix of `position`, longest first: `k0 = v0 AND … AND ki after
    /// vi` (or before, `backwards`), each ending in `ORDER BY tail`.
    func keysetStatements(head: String, position: [DatabaseValue], backwards: Bool, tail: String) -> [(sql: String, arguments: [DatabaseValue])] {
        keys.indices.reversed().map { index in
            var conditions = self.conditions
            var arguments = self.arguments
            for prefix in 0..<index {
                conditions.append("t.\(CatalogTable.quote(keys[prefix].column.column)) = ?")
                arguments.append(position[prefix])
            }
            let ascending = keys[index].descending == backwards
            conditions.append("t.\(CatalogTable.quote(keys[index].column.column)) \(ascending ? ">" : "<") ?")
            arguments.append(position[index])
            return (Self.select(head, conditions, tail), arguments)
        }
    }

    private static func select(_ head: String, _ conditions: [String], _ tail: String) -> String {
        head + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " ORDER BY " + tail
    }

    /// The section keys of a row selected with `selectList` (`sectionPrefix` of them).
    func section(of row: StatementRow) -> [SortValue] {
        let first = layout.count
        return keys.prefix(sectionPrefix).enumerated().map { offset, key in
            key.column.isText ? .text(row.text(first + offset) ?? "") : .integer(row.integer(first + offset) ?? 0)
        }
    }

    /// The keyset position of a row selected with `selectList`: its order keys, then its id.
    func position(of row: StatementRow, id: EntityID) -> [SortValue] {
        var values: [SortValue] = []
        values.reserveCapacity(keys.count)
        let first = layout.count
        for (offset, key) in keys.dropLast().enumerated() {
            values.append(key.column.isText ? .text(row.text(first + offset) ?? "") : .integer(row.integer(first + offset) ?? 0))
        }
        values.append(.text(id.rawValue))
        return values
    }
}
