import Domain
import GRDB

/// What a write to an outline (`CollectionDefinition.tree`) does beyond its row: no cycle, and
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

    /// A change entry for the node `id`, whose children changed, under its own parent; nothing
    /// when it is gone (a cascade deletes it next). The node is locked (`share`) as its parent is
    /// read: a move of it by another process's writer commits first or waits, so the entry names
    /// the level the node is in.
    func touch(_ id: String?, in table: CatalogTable) throws {
        guard let id, let node = EntityID(parsing: id, kind: table.collection.kind), let column = table.treeColumn else { return }
        var found = false
        var parent: String?
        let sql = db.lockingRows("SELECT \(CatalogTable.quote(column)) FROM \(CatalogTable.quote(table.name)) WHERE id = ?", .share)
        try db.each(sql, [id.databaseValue]) { row in
            found = true
            parent = row.text(0)
            return false
        }
        guard found else { return }
        _ = changes.append(table.collection.name, node, .update, author: author, parent: parent, touch: true)
    }
}
