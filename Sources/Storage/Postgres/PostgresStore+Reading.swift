import Domain
import GRDB

/// Pages, searches and the change feed on PostgreSQL: the SQLite store's SQL and row reading
/// (`CatalogPageQuery`, `CatalogStore.readRows`), each page in one repeatable-read snapshot.
extension PostgresStore {
    public func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage {
        let table = try table(query.collection)
        var items: [Versioned<Item>] = []
        items.reserveCapacity(query.limit)
        do {
            return try pool.reading { db in
                let end = try CatalogStore.readRows(db, try plan(query, table: table), walking: nil) { row, id in
                    items.append(try CatalogColumns.decode(row, in: table, id: id))
                }
                guard let end else { throw StoreError.invariant("a page read without a walk gave up") }
                return CatalogPage(
                    items: items, nextAfter: end.nextAfter,
                    references: try CatalogStore.references(db, of: items.map(\.item), in: table, fields: query.references, tables: tables))
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    public func visitPage(_ query: CatalogQuery, restart: () -> Void, visit: (PageRow) throws -> Void) throws(StoreError) -> PageEnd {
        let table = try table(query.collection)
        do {
            return try pool.reading { db in
                let reading = PageReading(source: db, tables: tables)
                let end = try CatalogStore.readRows(db, try plan(query, table: table), walking: nil) { row, id in
                    try visit(PageRow(row: row, table: table, id: id, reading: reading))
                }
                guard let end else { throw StoreError.invariant("a page read without a walk gave up") }
                return end
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// The page's plan; a search keeps the rows whose folded title or subtitle contains the
    /// folded text, as SQLite's search does, through the trigram indexes (`LIKE '%text%'`).
    private func plan(_ query: CatalogQuery, table: CatalogTable) throws -> CatalogPageQuery {
        var plan = try CatalogPageQuery(query, table: table)
        if let text = CatalogPageQuery.folded(query.search) { Self.restrict(&plan, toMatchesOf: text) }
        return plan
    }

    static func restrict(_ plan: inout CatalogPageQuery, toMatchesOf text: String) {
        let pattern = "%" + likeEscaped(text) + "%"
        plan.add("(t.title_key LIKE ? OR t.subtitle_key LIKE ?)", [pattern.databaseValue, pattern.databaseValue])
    }

    /// `text` with LIKE's wildcards and its escape (a backslash, PostgreSQL's default) escaped.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    public func changes(_ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery?) throws(StoreError)
        -> CatalogChangeBatch
    {
        let limit = min(max(limit, 1), 10_000)
        let table = try table(collection)
        do {
            return try pool.reading { db in
                let pruned = try db.integer("SELECT value FROM store_counters WHERE name = 'pruned_through'", []) ?? 0
                if pruned > 0 && sequence < pruned { throw StoreError.changesExpired(oldestRetained: pruned + 1) }
                var entries: [(sequence: Int64, id: String, operation: String, author: String?)] = []
                try db.each(
                    """
                    SELECT c.seq, c.item_id, c.op, c.key_id FROM changes AS c
                    WHERE c.collection = ? AND c.seq > ?
                      AND NOT EXISTS (SELECT 1 FROM changes AS d WHERE d.collection = c.collection AND d.item_id = c.item_id AND d.seq > c.seq)
                    ORDER BY c.seq LIMIT ?
                    """, [collection.databaseValue, sequence.databaseValue, (limit + 1).databaseValue]
                ) { row in
                    entries.append((row.integer(0) ?? 0, row.text(1) ?? "", row.text(2) ?? "", row.text(3)))
                    return true
                }
                let hasMore = entries.count > limit
                if hasMore { entries.removeLast() }
                let placer = try list.map { list in
                    try CatalogStore.ListPlacer(list, table: table) { plan, text in Self.restrict(&plan, toMatchesOf: text) }
                }
                var changes: [CatalogChange] = []
                changes.reserveCapacity(entries.count)
                for entry in entries {
                    guard let id = EntityID(parsing: entry.id, kind: table.collection.kind),
                        let operation = ChangeOperation(rawValue: entry.operation)
                    else { throw StoreError.invariant("change \(entry.sequence) is malformed") }
                    let item = operation == .delete ? nil : try CatalogStore.fetchItem(db, table: table, id: id)
                    let placement = try item == nil ? nil : placer?.place(id, db)
                    changes.append(
                        CatalogChange(sequence: entry.sequence, id: id, operation: operation, item: item, placement: placement, author: entry.author))
                }
                let references = try CatalogStore.references(
                    db, of: changes.compactMap { $0.item?.item }, in: table, fields: nil, tables: tables)
                return CatalogChangeBatch(changes: changes, hasMore: hasMore, resumeAfter: changes.last?.sequence ?? sequence, references: references)
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}
