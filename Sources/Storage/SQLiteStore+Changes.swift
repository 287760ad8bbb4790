import Domain
import GRDB

/// The change feed, read from the change log.
extension SQLiteStore {
    /// Changes of `collection` after `sequence`, in commit order.
    ///
    /// Expired means entries the caller still needs were pruned: the log keeps nothing at or
    /// before `pruned_through`, so a token `sequence < pruned_through` (i.e. older than the oldest
    /// retained entry minus one) throws `.changesExpired(oldestRetained: pruned_through + 1)`.
    /// A store that never pruned never expires a token.
    public func changes(_ collection: StoredCollection, after sequence: Int64, limit: Int) throws(StoreError) -> ChangeBatch {
        let limit = min(max(limit, 1), 10_000)
        let table = CollectionTable.of(collection)
        do {
            return try pool.read { db in
                let pruned = try ChangeLog.prunedThrough(db)
                if pruned > 0 && sequence < pruned { throw StoreError.changesExpired(oldestRetained: pruned + 1) }
                let rows = try Row.fetchCursor(
                    db.cachedStatement(sql: "SELECT seq, item_id, op FROM changes WHERE collection = ? AND seq > ? ORDER BY seq LIMIT ?"),
                    arguments: [collection.rawValue, sequence, limit + 1])
                var entries: [(sequence: Int64, id: String, operation: String)] = []
                while let row = try rows.next() { entries.append((row[0], row[1], row[2])) }
                let hasMore = entries.count > limit
                if hasMore { entries.removeLast() }

                let itemStatement = try db.cachedStatement(sql: table.selectByIDSQL)
                var changes: [Change] = []
                changes.reserveCapacity(entries.count)
                for entry in entries {
                    guard let id = EntityID(parsing: entry.id, kind: collection.kind), let operation = Change.Operation(rawValue: entry.operation)
                    else { throw StoreError.unavailable("change \(entry.sequence) is malformed") }
                    var item: Versioned<StoredItem>?
                    if operation != .delete, let row = try Row.fetchOne(itemStatement, arguments: [entry.id]) {
                        item = try ItemColumns.decode(row, in: collection)
                    }
                    changes.append(Change(sequence: entry.sequence, collection: collection, id: id, operation: operation, item: item))
                }
                return ChangeBatch(changes: changes, hasMore: hasMore, resumeAfter: changes.last?.sequence ?? sequence)
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}
