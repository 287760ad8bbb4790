import Domain
import GRDB

/// Pages and the change feed.
extension CatalogStore {
    /// A page in keyset order (never OFFSET), with the items its references point to.
    public func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage {
        let table = try table(query.collection)
        let plan = try CatalogPageQuery(query, table: table)
        do {
            return try pool.read { db in
                let wanted = plan.limit + 1
                var items: [Versioned<Item>] = []
                var nextAfter: [SortValue]?
                items.reserveCapacity(wanted)
                for (sql, arguments) in plan.seekStatements() where items.count < wanted {
                    let statement = try db.cachedStatement(sql: sql)
                    let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments + [(wanted - items.count).databaseValue]))
                    let row = StatementRow(statement)
                    // The cursor resets the statement when it goes: rows are read while it lives.
                    try withExtendedLifetime(cursor) {
                        while try cursor.next() != nil {
                            let item = try CatalogColumns.decode(row, in: table)
                            if items.count == plan.limit - 1 { nextAfter = plan.position(of: row, id: item.item.id) }
                            items.append(item)
                            if items.count == wanted { break }
                        }
                    }
                }
                if items.count <= plan.limit { nextAfter = nil }
                let page = Array(items.prefix(plan.limit))
                return CatalogPage(
                    items: page, nextAfter: nextAfter,
                    references: try references(db, of: page.map(\.item), in: table, fields: query.references))
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Changes of `collection` after `sequence`, in commit order, at most `limit`: one entry
    /// per item, at its last change, with its state now (a create and a delete of one item
    /// read as one delete). Throws `.changesExpired` when `sequence` is older than the log.
    public func changes(_ collection: String, after sequence: Int64, limit: Int) throws(StoreError) -> CatalogChangeBatch {
        let limit = min(max(limit, 1), 10_000)
        let table = try table(collection)
        do {
            return try pool.read { db in
                let pruned = try ChangeLog.prunedThrough(db)
                if pruned > 0 && sequence < pruned { throw StoreError.changesExpired(oldestRetained: pruned + 1) }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(
                        sql: """
                            SELECT c.seq, c.item_id, c.op FROM changes AS c
                            WHERE c.collection = ? AND c.seq > ?
                              AND NOT EXISTS (SELECT 1 FROM changes AS d WHERE d.collection = c.collection AND d.item_id = c.item_id AND d.seq > c.seq)
                            ORDER BY c.seq LIMIT ?
                            """), arguments: [collection, sequence, limit + 1])
                var entries: [(sequence: Int64, id: String, operation: String)] = []
                while let row = try rows.next() { entries.append((row[0], row[1], row[2])) }
                let hasMore = entries.count > limit
                if hasMore { entries.removeLast() }
                var changes: [CatalogChange] = []
                changes.reserveCapacity(entries.count)
                for entry in entries {
                    guard let id = EntityID(parsing: entry.id, kind: table.collection.kind),
                        let operation = ChangeOperation(rawValue: entry.operation)
                    else { throw StoreError.unavailable("change \(entry.sequence) is malformed") }
                    let item = operation == .delete ? nil : try Self.fetchItem(db, table: table, id: id)
                    changes.append(CatalogChange(sequence: entry.sequence, id: id, operation: operation, item: item))
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
