import Domain
import GRDB

/// The items a group commit's writes refer to, read and locked (`RowLock.share`) before the
/// first write, one statement per referenced collection, so that writes referring to the same
/// few items (many rows under a handful of parents) check each reference and copy each section
/// key from memory rather than with two statements a write: on PostgreSQL each was a round trip.
///
/// Holds only what the transaction read at its top level: a row lock taken inside a write's
/// savepoint goes when that savepoint rolls back, so what a write reads for itself is not kept.
/// A write that changes or deletes an item takes it out (`forget`); an item the batch itself
/// inserts is not here, and is read as before.
final class BatchReferences {
    private var items: [String: [EntityID: Item]] = [:]

    /// The item `id` of `table`, locked for the transaction, when the batch read it.
    func item(_ id: EntityID, in table: String) -> Item? { items[table]?[id] }

    func forget(_ id: EntityID, in table: String) { items[table]?[id] = nil }

    /// Reads and locks the items the references of `writes`' items name.
    func load(_ writes: [StoreWrite], tables: [String: CatalogTable], db: any SQLConnection) throws {
        var wanted: [String: Set<EntityID>] = [:]
        for write in writes.lazy.flatMap(\.write.operations) {
            let (item, collection): (Item, String)
            switch write {
            case .insert(let written, let name), .update(let written, let name, _): (item, collection) = (written, name)
            case .delete, .applySearchBacklog, .group: continue
            }
            guard let table = tables[collection] else { continue }
            for reference in table.references {
                if let id = item[slot: reference.slot].reference { wanted[reference.target, default: []].insert(id) }
            }
        }
        for (name, ids) in wanted {
            guard let table = tables[name] else { continue }
            let sorted = ids.filter { $0.kind == table.collection.kind }.map(\.rawValue).sorted()
            var found: [EntityID: Item] = [:]
            for start in stride(from: 0, to: sorted.count, by: Self.idsPerStatement) {
                let chunk = sorted[start..<min(start + Self.idsPerStatement, sorted.count)]
                try db.each(db.lockingRows(Self.selectSQL(table, count: Self.padded(chunk.count)), .share), Self.arguments(chunk)) { row in
                    let versioned = try CatalogColumns.decode(row, in: table)
                    found[versioned.item.id] = versioned.item
                    return true
                }
            }
            items[name] = found
        }
    }

    static let idsPerStatement = 512

    /// `count` rounded up to a power of two: a statement text per size is prepared on each
    /// PostgreSQL connection, so sizes are kept to a few.
    static func padded(_ count: Int) -> Int {
        var size = 1
        while size < count { size *= 2 }
        return size
    }

    /// The ids, the last repeated up to the padded count.
    static func arguments(_ ids: ArraySlice<String>) -> [DatabaseValue] {
        guard let last = ids.last else { return [] }
        let values = ids.map(\.databaseValue)
        return values + Array(repeating: last.databaseValue, count: padded(ids.count) - ids.count)
    }

    /// Selects the items of `count` ids in id order: rows are locked in one order by every writer.
    static func selectSQL(_ table: CatalogTable, count: Int) -> String {
        "SELECT \(table.selectList) FROM \(CatalogTable.quote(table.name)) AS t WHERE t.id IN ("
            + repeatElement("?", count: count).joined(separator: ", ") + ") ORDER BY t.id"
    }
}
