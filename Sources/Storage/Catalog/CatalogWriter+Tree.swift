import Domain
import GRDB

/// What a write to an outline (`CollectionDefinition.tree`) does beyond its row: no cycle, the
/// stored number of children of the nodes it adds children to or takes them from, and
/// change-log entries for every list whose rows it changes.
///
/// A node's row shows its number of children, so a node whose children change gets a change
/// entry of its own (`touch`), under its own parent, without a new version: its fields are what
/// it was (an `If-Match` on it still holds), but every feed that shows its row carries the new
/// count. A node that moves leaves an entry under its old parent (`leave`), which that level's
/// feed reads as the node leaving it; its own entry names its new parent.
extension CatalogWriter {
    /// The most ancestors a move walks, and a detail lists: an outline deeper than this is refused
    /// a move under its deepest nodes (`TREE_TOO_DEEP`); a cycle already in the data (written
    /// by hand into the database) ends there instead of looping.
    static let maxTreeDepth = 1_000

    /// Refuses a change of `item`'s parent to `parent` that would make the node its own ancestor:
    /// walks up from the new parent, locking each node (`share`) so that no concurrent move of
    /// another writer closes a cycle through one of them before this write commits (on
    /// PostgreSQL two such moves wait on each other, and one of them runs again and finds it).
    func checkNoCycle(_ id: EntityID, under parent: EntityID, in table: CatalogTable) throws {
        guard let column = table.treeColumn, let tree = table.collection.tree else { return }
        let field = "/" + table.collection.fields[tree.field].name
        let sql = db.lockingRows("SELECT \(CatalogTable.quote(column)) FROM \(CatalogTable.quote(table.name)) WHERE id = ?", .share)
        var next: String? = parent.rawValue
        var steps = 0
        while let node = next {
            if node == id.rawValue { throw StoreError.treeCycle(field: field) }
            steps += 1
            if steps > Self.maxTreeDepth { throw StoreError.treeTooDeep(field: field, depth: Self.maxTreeDepth) }
            var above: String?
            try db.each(sql, [node.databaseValue]) { row in
                above = row.text(0)
                return false
            }
            next = above
        }
    }

    /// The entry a moved node leaves under its old parent (nil: the roots): a sequence before its
    /// own entry, so the collection's feed reads the node's own.
    func recordLeaving(_ id: EntityID, from parent: String?, in table: CatalogTable) {
        _ = changes.append(table.collection.name, id, .update, author: author, parent: parent, touch: true)
    }

    /// A node `id` whose children changed by `delta`: its stored number of children moves with
    /// them, and it gets a change entry under its own parent (nothing when it is gone: a cascade
    /// deletes it next). The update locks the node: a move of it by another process's writer
    /// commits first or waits, so the entry names the level the node is in.
    func touch(_ id: String?, adding delta: Int, in table: CatalogTable) throws {
        guard let id, let entity = EntityID(parsing: id, kind: table.collection.kind) else { return }
        let node = try countChildren(of: id, adding: delta, in: table)
        guard node.found else { return }
        _ = changes.append(table.collection.name, entity, .update, author: author, parent: node.parent, touch: true)
    }

    /// Adds `delta` to the stored number of children of node `id` (`CatalogTable.childCountSQL`);
    /// whether the node was there (there is no such node outside an outline), and its parent.
    @discardableResult
    func countChildren(of id: String, adding delta: Int, in table: CatalogTable) throws -> (found: Bool, parent: String?) {
        guard let column = table.treeColumn else { return (false, nil) }
        let count = CatalogTable.childCountColumn
        let sql = "UPDATE \(CatalogTable.quote(table.name)) SET \(count) = \(count) + ? WHERE id = ? RETURNING \(CatalogTable.quote(column))"
        var node: (found: Bool, parent: String?) = (false, nil)
        try db.each(sql, [Int64(delta).databaseValue, id.databaseValue]) { row in
            node = (true, row.text(0))
            return true
        }
        return node
    }
}
