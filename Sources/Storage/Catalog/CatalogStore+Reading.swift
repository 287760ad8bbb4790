import Domain
import GRDB

/// Pages and the change feed.
extension CatalogStore {
    /// Every page on SQLite reads one snapshot (`snapshot` asks for nothing more): its
    /// transaction is in the process, not a round trip away.
    func readPageRows<T>(
        _ query: CatalogQuery, table: CatalogTable, snapshot: Bool, restart: () -> Void,
        each: (PageReading, StatementRow, EntityID) throws -> Void, finish: (PageReading, PageEnd) throws -> T
    ) throws -> T {
        try read(query) { source, db in
            let reading = PageReading(source: source, tables: tables, layout: CatalogPageQuery.layout(query, table))
            let end = try readPage(query, table: table, source, db, restart: restart) { row, id in try each(reading, row, id) }
            return try finish(reading, end)
        }
    }

    /// Runs `body` in one snapshot: a search on GRDB's connection (its plans read with GRDB's
    /// API), any other page on the store's own (`db` nil).
    private func read<T>(_ query: CatalogQuery, _ body: (any RowSource, Database?) throws -> T) throws -> T {
        if CatalogPageQuery.folded(query.search) != nil { return try pool.read { db in try body(db, db) } }
        return try readSnapshot { source in try body(source, nil) }
    }

    /// Plans the page (a search picks its plan, on `db`) and reads its rows.
    private func readPage(
        _ query: CatalogQuery, table: CatalogTable, _ source: any RowSource, _ db: Database?, restart: () -> Void,
        _ each: (StatementRow, EntityID) throws -> Void
    ) throws -> PageEnd {
        var plan = try CatalogPageQuery(query, table: table)
        if let text = CatalogPageQuery.folded(query.search), let db {
            switch try planSearch(text, in: &plan, db) {
            case .nothing: return PageEnd(count: 0, nextAfter: nil)
            case .planned: break
            case .common(let matches):
                if let end = try Self.readRows(db, plan, walking: SearchWalk(text: text, budget: options.search.walk), each) { return end }
                restart()
                plan = try fallback(plan, text: text, matches: matches, db)
            }
        }
        guard let end = try Self.readRows(source, plan, walking: nil, each) else {
            throw StoreError.invariant("a page read without a walk gave up")
        }
        return end
    }

    /// Calls `each` with the page's rows in order, and answers where the page ended. With a
    /// walk, only rows containing its text count, and the walk gives up (nil) after reading its
    /// budget of rows.
    /// `statements`: whole statements, LIMIT included (`CatalogPageQuery.seekStatement`); nil:
    /// the plan's `seekStatements`, each given its LIMIT as its last argument.
    static func readRows(
        _ source: any RowSource, _ plan: CatalogPageQuery, statements: [(sql: String, arguments: [DatabaseValue])]? = nil, walking walk: SearchWalk?,
        _ each: (StatementRow, EntityID) throws -> Void
    ) throws -> PageEnd? {
        let table = plan.table
        // One more than the page: whether it exists says whether there is a next page.
        let wanted = plan.limit + 1
        var count = 0
        var nextAfter: [SortValue]?
        var firstAt: [SortValue]?
        var sections: [[SortValue]] = []
        var read = 0
        // A walk's plan selects the folded title and subtitle it checks.
        let titleKey = plan.layout.searchKeys ?? 0
        for (sql, arguments) in statements ?? plan.seekStatements() where count < wanted {
            let limit = walk.map { $0.budget - read } ?? wanted - count
            try source.each(sql, statements == nil ? arguments + [limit.databaseValue] : arguments) { row in
                if let walk {
                    read += 1
                    guard walk.matches(row, titleColumn: titleKey) else { return true }
                }
                count += 1
                if count == wanted { return false }
                let id = try CatalogColumns.id(row, in: table)
                if count == 1 { firstAt = plan.position(of: row, id: id) }
                if count == plan.limit { nextAfter = plan.position(of: row, id: id) }
                if plan.sectionPrefix > 0 {
                    let section = plan.section(of: row)
                    if sections.last != section { sections.append(section) }
                }
                try each(row, id)
                return true
            }
            if let walk, read >= walk.budget, count < wanted { return nil }
        }
        if count <= plan.limit { nextAfter = nil }
        return PageEnd(count: min(count, plan.limit), nextAfter: nextAfter, firstAt: firstAt, sections: sections)
    }

    /// On GRDB's connection: a list's search is narrowed as pages search (`restrict(_:toMatchesOf:keys:_:)`).
    static func filterRows(_ plan: inout CatalogPageQuery, containing text: String) {
        plan.addSubstringFilter(text)
    }

    func readFeed<T>(_ body: (any RowSource, (inout CatalogPageQuery, String) throws -> Void) throws -> T) throws -> T {
        let keys = options.search.keys
        return try pool.read { db in try body(db) { plan, text in try Self.restrict(&plan, toMatchesOf: text, keys: keys, db) } }
    }

    /// `changes(…)` read on `db` in one snapshot, for either database; `restrict` narrows a
    /// list to a search's matches the way that database searches.
    static func readChanges(
        _ db: any RowSource, table: CatalogTable, after sequence: Int64, limit: Int, in list: CatalogQuery?, tables: [String: CatalogTable],
        restrict: (inout CatalogPageQuery, String) throws -> Void, filter: (inout CatalogPageQuery, String) -> Void
    ) throws -> CatalogChangeBatch {
        let limit = min(max(limit, 1), 10_000)
        let pruned = try db.integer("SELECT value FROM store_counters WHERE name = 'pruned_through'", []) ?? 0
        if pruned > 0 && sequence < pruned { throw StoreError.changesExpired(oldestRetained: pruned + 1) }
        let (scope, scopeArguments) = feedScope(table, list)
        var entries = try db.all(
            """
            SELECT c.seq, c.item_id, c.op, c.key_id FROM changes AS c
            WHERE c.collection = ?\(scope.entries) AND c.seq > ?
              AND NOT EXISTS (
                SELECT 1 FROM changes AS d WHERE d.collection = c.collection AND d.item_id = c.item_id AND d.seq > c.seq\(scope.later))
            ORDER BY c.seq LIMIT ?
            """,
            [table.collection.name.databaseValue] + scopeArguments + [sequence.databaseValue, (limit + 1).databaseValue]
        ) { row in (sequence: row.integer(0) ?? 0, id: row.text(1) ?? "", operation: row.text(2) ?? "", author: row.text(3)) }
        let hasMore = entries.count > limit
        if hasMore { entries.removeLast() }
        var placer = try list.map { list in try ListPlacer(list, table: table, filter: filter) }
        var changes: [CatalogChange] = []
        changes.reserveCapacity(entries.count)
        for entry in entries {
            guard let id = EntityID(parsing: entry.id, kind: table.collection.kind), let operation = ChangeOperation(rawValue: entry.operation)
            else { throw StoreError.invariant("change \(entry.sequence) is malformed") }
            let item = operation == .delete ? nil : try fetchItem(db, table: table, id: id)
            let placement = try item == nil ? nil : placer?.place(id, db, restrict: restrict)
            var change = CatalogChange(sequence: entry.sequence, id: id, operation: operation, item: item, placement: placement, author: entry.author)
            if item != nil, table.treeColumn != nil {
                change.childCount = Int(
                    try db.integer(
                        "SELECT \(CatalogTable.childCountColumn) FROM \(CatalogTable.quote(table.name)) WHERE id = ?", [id.rawValue.databaseValue])
                        ?? 0)
            }
            changes.append(change)
        }
        let references = try references(db, of: changes.compactMap { $0.item?.item }, in: table, fields: nil, tables: tables)
        return CatalogChangeBatch(changes: changes, hasMore: hasMore, resumeAfter: changes.last?.sequence ?? sequence, references: references)
    }

    /// Which of the log's entries a list's feed reads (`entries`), and which later entries of the
    /// same item make one of them stale (`later`), with their arguments.
    ///
    /// A child list reads its parent's entries only: a child never moves to another parent. One
    /// level of an outline reads the entries naming its parent (none: the roots), each item's
    /// last among them: a node moved away left an entry under its old parent when it moved
    /// (`CatalogWriter.recordLeaving`), which that level's feed reads as the node leaving (it is no
    /// longer in the list), while the node's later entries name its new parent only.
    private static func feedScope(_ table: CatalogTable, _ list: CatalogQuery?) -> (
        (entries: String, later: String), [DatabaseValue]
    ) {
        if table.parentColumn != nil, let parent = list?.parent { return ((" AND c.parent_id = ?", ""), [parent.rawValue.databaseValue]) }
        switch list?.level {
        case .roots?: return ((" AND c.parent_id IS NULL", " AND d.parent_id IS NULL"), [])
        case .children(let parent)?: return ((" AND c.parent_id = ?", " AND d.parent_id = c.parent_id"), [parent.rawValue.databaseValue])
        case nil: return (("", ""), [])
        }
    }
}
