import Domain
import GRDB

/// Pages and the change feed.
extension CatalogStore {
    /// A page in keyset order (never OFFSET), with the items its references point to.
    public func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage {
        let table = try table(query.collection)
        var plan = try CatalogPageQuery(query, table: table)
        do {
            return try pool.read { db in
                var rows: (items: [Versioned<Item>], nextAfter: [SortValue]?)?
                if let text = CatalogPageQuery.folded(query.search) {
                    switch try planSearch(text, in: &plan, db) {
                    case .nothing: return CatalogPage(items: [], nextAfter: nil, references: ReferencedItems())
                    case .planned: break
                    case .common(let matches):
                        rows = try readRows(db, plan, walking: SearchWalk(text: text, budget: options.search.walk))
                        if rows == nil { plan = try fallback(plan, text: text, matches: matches, db) }
                    }
                }
                guard let (items, nextAfter) = try rows ?? readRows(db, plan, walking: nil) else {
                    throw StoreError.invariant("a page read without a walk gave up")
                }
                return CatalogPage(
                    items: items, nextAfter: nextAfter, references: try references(db, of: items.map(\.item), in: table, fields: query.references))
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// The page's items in order and the position after its last one (nil on the last page).
    /// With a walk, only rows containing its text count, and the walk gives up (nil) after
    /// reading its budget of rows.
    private func readRows(_ db: Database, _ plan: CatalogPageQuery, walking walk: SearchWalk?) throws -> ([Versioned<Item>], [SortValue]?)? {
        let table = plan.table
        let wanted = plan.limit + 1
        var items: [Versioned<Item>] = []
        var nextAfter: [SortValue]?
        var read = 0
        items.reserveCapacity(wanted)
        // The select list is id, version, then the table's columns, which end with the folded
        // title and subtitle a walk checks.
        let titleKey = 2 + table.columns.count - 2
        for (sql, arguments) in plan.seekStatements() where items.count < wanted {
            let limit = walk.map { $0.budget - read } ?? wanted - items.count
            let statement = try db.cachedStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments + [limit.databaseValue]))
            let row = StatementRow(statement)
            // The cursor resets the statement when it goes: rows are read while it lives.
            try withExtendedLifetime(cursor) {
                while try cursor.next() != nil {
                    if let walk {
                        read += 1
                        guard walk.matches(row, titleColumn: titleKey) else { continue }
                    }
                    let item = try CatalogColumns.decode(row, in: table)
                    if items.count == plan.limit - 1 { nextAfter = plan.position(of: row, id: item.item.id) }
                    items.append(item)
                    if items.count == wanted { break }
                }
            }
            if let walk, read >= walk.budget, items.count < wanted { return nil }
        }
        if items.count <= plan.limit { nextAfter = nil }
        return (Array(items.prefix(plan.limit)), nextAfter)
    }

    /// Changes of `collection` after `sequence`, in commit order, at most `limit`: one entry
    /// per item, at its last change, with its state now (a create and a delete of one item
    /// read as one delete). Throws `.changesExpired` when `sequence` is older than the log.
    /// With a `list` (a query of this collection; its position and limit are ignored), each
    /// existing item also says where it now stands in that list, read in the same snapshot.
    public func changes(_ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery? = nil) throws(StoreError)
        -> CatalogChangeBatch
    {
        let limit = min(max(limit, 1), 10_000)
        let table = try table(collection)
        let options = options
        do {
            return try pool.read { db in
                let pruned = try ChangeLog.prunedThrough(db)
                if pruned > 0 && sequence < pruned { throw StoreError.changesExpired(oldestRetained: pruned + 1) }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT c.seq, c.item_id, c.op, c.key_id FROM changes AS c
                            WHERE c.collection = ? AND c.seq > ?
                              AND NOT EXISTS (SELECT 1 FROM changes AS d WHERE d.collection = c.collection AND d.item_id = c.item_id AND d.seq > c.seq)
                            ORDER BY c.seq LIMIT ?
                            """), arguments: [collection, sequence, limit + 1])
                var entries: [(sequence: Int64, id: String, operation: String, author: String?)] = []
                while let row = try rows.next() { entries.append((row[0], row[1], row[2], row[3])) }
                let hasMore = entries.count > limit
                if hasMore { entries.removeLast() }
                var changes: [CatalogChange] = []
                changes.reserveCapacity(entries.count)
                let placer = try list.map { list in try ListPlacer(list, table: table, options: options, db) }
                for entry in entries {
                    guard let id = EntityID(parsing: entry.id, kind: table.collection.kind),
                        let operation = ChangeOperation(rawValue: entry.operation)
                    else { throw StoreError.invariant("change \(entry.sequence) is malformed") }
                    let item = operation == .delete ? nil : try Self.fetchItem(db, table: table, id: id)
                    let placement = try item == nil ? nil : placer?.place(id, db)
                    changes.append(
                        CatalogChange(sequence: entry.sequence, id: id, operation: operation, item: item, placement: placement, author: entry.author))
                }
                let references = try references(db, of: changes.compactMap { $0.item?.item }, in: table)
                return CatalogChangeBatch(
                    changes: changes, hasMore: hasMore, resumeAfter: changes.last?.sequence ?? sequence, references: references)
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}
