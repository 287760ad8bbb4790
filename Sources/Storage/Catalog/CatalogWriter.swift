import Domain
import GRDB

/// A write the catalog store's group-committing writer applies.
enum CatalogWrite: Sendable {
    case insert(Item, collection: String)
    case update(Item, collection: String, ifVersion: Int64?)
    case delete(EntityID, collection: String, ifVersion: Int64?)
    /// Writes nothing: its batch indexes the inserts waiting for search (`SearchBacklog`).
    case applySearchBacklog
    /// Several inserts, updates and deletes applied in order, all or none (`POST …/batch` with
    /// `"atomic": true`): one savepoint holds them, and the first that fails takes the others back.
    case group([CatalogWrite])

    /// Whether the write can take a row out of the search index (and so needs every row it
    /// could touch indexed first): updates and deletes, cascades included.
    var removesSearchEntries: Bool {
        switch self {
        case .insert, .applySearchBacklog: false
        case .update, .delete: true
        case .group(let writes): writes.contains(where: \.removesSearchEntries)
        }
    }

    /// The single writes it is made of: a group's, or itself.
    var operations: [CatalogWrite] {
        if case .group(let writes) = self { writes } else { [self] }
    }

    var isApplySearchBacklog: Bool {
        if case .applySearchBacklog = self { true } else { false }
    }
}

/// A write and who asked for it, as a store's writer takes it (`ItemStore.submit`): the API key's
/// id, recorded with each of its change-log entries (nil: a command, the demo seed).
public struct StoreWrite: Sendable {
    var write: CatalogWrite
    var author: String?
    /// The `Idempotency-Key` it runs under: marked applied in the write's own savepoint.
    var idempotency: IdempotencyMark? = nil
    /// The ids of the batch request this write is part of, which the key's record names instead
    /// of the write's own item: a retry whose answer was never stored is answered from them.
    var batch: String? = nil
}

/// What a write answers once committed: the item each of its operations wrote (nil for a delete),
/// in order; one for a single write.
public typealias WrittenItems = [Versioned<Item>?]

/// Applies one insert, update or delete inside the caller's transaction: references checked,
/// change-log entry, search index and the section keys of items that show this one's title.
///
/// Every check happens before anything is written, and the caller wraps each write in a
/// savepoint, so a failing write leaves no trace while the others of its batch commit.
struct CatalogWriter {
    let db: any SQLConnection
    let now: Int64
    let tables: [String: CatalogTable]
    let renderers: [String: ItemRenderer]
    let catalog: Catalog
    /// The search-index entries of the writes, which the caller applies after them.
    let search = PendingSearchEntries()
    /// The transaction's change-log entries, which the caller writes after the writes. A SQLite
    /// bulk load's records none (`PendingChanges.recording`): it indexes its new rows for search
    /// and makes their entries from them at its end, so its inserts record neither.
    let changes: PendingChanges
    /// The key id the change-log entries of the current write name.
    var author: String?
    /// The items the batch's references name, read and locked before its first write.
    let references = BatchReferences()
    /// The most rows one INSERT of a batch writes (`CatalogWriter+Batch.swift`): a statement is
    /// a round trip to PostgreSQL; SQLite, in the process, has none to save and keeps one row a
    /// statement (its prepared statement, not a text per batch size).
    var rowsPerInsert = 1

    func apply(_ write: CatalogWrite) throws -> Versioned<Item>? {
        switch write {
        case .insert(let item, let collection): return try insert(item, into: try table(collection))
        case .update(let item, let collection, let ifVersion): return try update(item, in: try table(collection), ifVersion: ifVersion)
        case .delete(let id, let collection, let ifVersion):
            try delete(id, from: try table(collection), ifVersion: ifVersion)
            return nil
        case .applySearchBacklog: return nil
        case .group: throw StoreError.invariant("a group of writes inside another")
        }
    }

    /// Applies a write of any kind; a group's failure names its operation (`StoreError.inGroup`).
    func applyAll(_ write: CatalogWrite) throws -> WrittenItems {
        guard case .group(let writes) = write else { return [try apply(write)] }
        var written: WrittenItems = []
        written.reserveCapacity(writes.count)
        for (index, operation) in writes.enumerated() {
            do {
                written.append(try apply(operation))
            } catch {
                throw StoreError.inGroup(operation: index, StoreError.from(error))
            }
        }
        return written
    }

    func table(_ name: String) throws -> CatalogTable {
        guard let table = tables[name] else { throw StoreError.invariant("no collection \(name)") }
        return table
    }

    func insert(_ item: Item, into table: CatalogTable) throws -> Versioned<Item> {
        let columns = try checkInsert(item, into: table)
        guard let written = try writeInsert(item, columns: columns, into: table) else { throw try existing(item.id, in: table) }
        if table.treeColumn != nil { try touch(table.parentID(of: item), adding: 1, in: table) }
        return written
    }

    /// Whether `item` can be inserted: its kind and references that resolve. Writes nothing;
    /// returns the row's column values for `writeInsert`. Whether its id is new, `writeInsert`
    /// finds out: the ids are the server's, and the insert's own seek of the unique index
    /// answers it again.
    func checkInsert(_ item: Item, into table: CatalogTable) throws -> [(any DatabaseValueConvertible)?] {
        guard item.id.kind == table.collection.kind else { throw StoreError.invariant("\(item.id) is not an id of \(table.collection.name)") }
        try checkReferences(of: item, in: table)
        return try columnValues(item, table)
    }

    /// Writes a checked insert: its row, its change entry, its search entry. Nil when the id
    /// exists: then it wrote nothing and took its sequence back.
    func writeInsert(_ item: Item, columns: [(any DatabaseValueConvertible)?], into table: CatalogTable) throws -> Versioned<Item>? {
        let mark = changes.mark
        let version = changes.append(table.collection.name, item.id, .insert, author: author, parent: table.parentID(of: item))
        let arguments = [item.id.rawValue.databaseValue, version.databaseValue] + columns.map { $0?.databaseValue ?? .null }
        guard changes.recording else {
            guard try db.run(table.insertNewSQL, arguments) > 0 else {
                changes.discard(from: mark)
                return nil
            }
            return Versioned(item: item, version: version)
        }
        guard let pk = try db.insert(table.insertNewSQL, arguments, returning: "pk") else {
            changes.discard(from: mark)
            return nil
        }
        recordSearch(of: columns, pk: pk, in: table)
        return Versioned(item: item, version: version)
    }

    /// The refusal of an insert whose id exists. Ids are the server's: an existing one means
    /// "create" met an item (If-None-Match: * failed).
    func existing(_ id: EntityID, in table: CatalogTable) throws -> StoreError {
        .versionMismatch(current: try currentRow(id, in: table)?.version ?? 0)
    }

    func update(_ item: Item, in table: CatalogTable, ifVersion: Int64?) throws -> Versioned<Item> {
        guard let current = try currentRow(item.id, in: table) else { throw StoreError.missing(collection: table.collection.name, item.id) }
        if let ifVersion, ifVersion != current.version { throw StoreError.versionMismatch(current: current.version) }
        try checkReferences(of: item, in: table)
        let parent = table.parentID(of: item)
        let moves = table.treeColumn != nil && parent != current.parent
        if moves, let parent, let node = EntityID(parsing: parent, kind: table.collection.kind) {
            try checkNoCycle(item.id, under: node, in: table)
        }
        references.forget(item.id, in: table.collection.name)
        if moves { recordLeaving(item.id, from: current.parent, in: table) }
        let version = changes.append(table.collection.name, item.id, .update, author: author, parent: parent)
        search.remove(table, pk: current.pk, key: current.searchKey, title: current.title, subtitle: current.subtitle)
        let columns = try columnValues(item, table)
        try db.run(table.updateSQL, [version.databaseValue] + columns.map { $0?.databaseValue ?? .null } + [item.id.rawValue.databaseValue])
        recordSearch(of: columns, pk: current.pk, in: table)
        try refreshSectionKeys(of: item, in: table)
        if moves {
            try touch(current.parent, adding: -1, in: table)
            try touch(parent, adding: 1, in: table)
        }
        return Versioned(item: item, version: version)
    }

    /// `touchingParent`: an outline node's parent gets an entry for its changed children, unless
    /// it is the node a cascade deletes this one with.
    func delete(_ id: EntityID, from table: CatalogTable, ifVersion: Int64?, touchingParent: Bool = true) throws {
        guard let current = try currentRow(id, in: table) else { throw StoreError.missing(collection: table.collection.name, id) }
        if let ifVersion, ifVersion != current.version { throw StoreError.versionMismatch(current: current.version) }
        try deleteReferrers(of: id, in: table)
        references.forget(id, in: table.collection.name)
        _ = changes.append(table.collection.name, id, .delete, author: author, parent: current.parent)
        search.remove(table, pk: current.pk, key: current.searchKey, title: current.title, subtitle: current.subtitle)
        try db.run("DELETE FROM \(CatalogTable.quote(table.name)) WHERE pk = ?", [current.pk.databaseValue])
        if table.treeColumn != nil, touchingParent { try touch(current.parent, adding: -1, in: table) }
    }

    /// Items that refer to `id`: a restricting reference refuses the delete (409); a cascading
    /// one (a parent item's children) deletes them first, each with its own change entry; one that sets
    /// null writes each without the reference (an outline's children become roots), as a patch would.
    private func deleteReferrers(of id: EntityID, in table: CatalogTable) throws {
        for (source, field) in catalog.references(to: table.collection) {
            guard let sourceTable = tables[source.name], let slot = source.fields[field].slot else { continue }
            let column = CatalogTable.quote(sourceTable.valueColumns[slot][0])
            let onDelete = source.fields[field].reference?.onDelete ?? (source.parent?.field == field ? .cascade : .restrict)
            switch onDelete {
            case .restrict:
                let referenced = try db.integer(
                    "SELECT 1 FROM \(CatalogTable.quote(sourceTable.name)) WHERE \(column) = ? LIMIT 1", [id.rawValue.databaseValue])
                if referenced != nil {
                    throw StoreError.stillReferenced("\(id) is still referenced by \(source.name).\(source.fields[field].name)")
                }
            case .cascade:
                let ids = try db.texts(
                    "SELECT id FROM \(CatalogTable.quote(sourceTable.name)) WHERE \(column) = ? ORDER BY pk", [id.rawValue.databaseValue])
                // A node deleted with its parent: the parent goes too, and needs no entry for it.
                let underDeleted = source.tree?.field == field
                for text in ids {
                    guard let child = EntityID(parsing: text) else { continue }
                    try delete(child, from: sourceTable, ifVersion: nil, touchingParent: !underDeleted)
                }
            case .setNull:
                let ids = try db.texts(
                    "SELECT id FROM \(CatalogTable.quote(sourceTable.name)) WHERE \(column) = ? ORDER BY pk", [id.rawValue.databaseValue])
                for text in ids {
                    guard let referrer = EntityID(parsing: text, kind: source.kind),
                        var item = try CatalogStore.fetchItem(db, table: sourceTable, id: referrer)?.item
                    else { continue }
                    item.values[slot] = .null
                    _ = try update(item, in: sourceTable, ifVersion: nil)
                }
            }
        }
    }

    /// Items sectioned by a reference to this one order by a copy of its folded title: rewrite it.
    private func refreshSectionKeys(of item: Item, in table: CatalogTable) throws {
        guard let renderer = renderers[table.collection.name] else { return }
        let key = searchFolded(renderer.bareTitle(of: item, in: RenderContext(locale: .enUS)))
        for (source, field) in catalog.references(to: table.collection) where source.sections?.field == field {
            guard let sourceTable = tables[source.name], let slot = source.fields[field].slot else { continue }
            try db.run(
                "UPDATE \(CatalogTable.quote(sourceTable.name)) SET s_key = ? WHERE \(CatalogTable.quote(sourceTable.valueColumns[slot][0])) = ?",
                [key.databaseValue, item.id.rawValue.databaseValue])
        }
    }

    /// Records the search entry of a row written with `columns`, which end with the folded title
    /// and subtitle, as `CatalogColumns.values` makes them.
    func recordSearch(of columns: [(any DatabaseValueConvertible)?], pk: Int64, in table: CatalogTable) {
        let texts = columns.suffix(2).map { $0 as? String }
        search.add(table, pk: pk, title: texts.first ?? nil, subtitle: texts.count > 1 ? texts[1] : nil)
    }

    private func columnValues(_ item: Item, _ table: CatalogTable) throws -> [(any DatabaseValueConvertible)?] {
        guard let renderer = renderers[table.collection.name] else { throw StoreError.invariant("no renderer for \(table.collection.name)") }
        let key = try Self.sectionKey(of: item, in: table, db: db, tables: tables, renderers: renderers, known: references)
        return CatalogColumns.values(of: item, in: table, renderer: renderer, sectionKey: key)
    }

    /// The folded title of the item the section reference of `item` points to ("" for none).
    /// `known`: items read already (the batch's references), looked up before the database.
    static func sectionKey(
        of item: Item, in table: CatalogTable, db: any RowSource, tables: [String: CatalogTable], renderers: [String: ItemRenderer],
        known: BatchReferences? = nil
    )
        throws
        -> String
    {
        guard let sections = table.collection.sections, let slot = table.collection.fields[sections.field].slot,
            let id = item[slot: slot].reference, let target = table.collection.fields[sections.field].type.referencedCollection,
            let targetTable = tables[target], let renderer = renderers[target],
            let referenced = try known?.item(id, in: target) ?? CatalogStore.fetchItem(db, table: targetTable, id: id)?.item
        else { return "" }
        return searchFolded(renderer.bareTitle(of: referenced, in: RenderContext(locale: .enUS)))
    }

    /// Every reference of `item` names an existing item of its collection (422 on the field
    /// otherwise), locked against change and deletion until the write commits (`RowLock.share`):
    /// a delete by another process's writer cannot leave the reference dangling, nor a rename
    /// the section key that copies its title stale.
    private func checkReferences(of item: Item, in table: CatalogTable) throws {
        for reference in table.collection.references {
            guard let slot = reference.field.slot, let id = item[slot: slot].reference else { continue }
            if references.item(id, in: reference.target) != nil { continue }
            guard let target = tables[reference.target], id.kind == target.collection.kind,
                try db.integer(
                    db.lockingRows("SELECT 1 FROM \(CatalogTable.quote(target.name)) WHERE id = ?", .share), [id.rawValue.databaseValue]) != nil
            else { throw StoreError.invalidReference(field: "/\(reference.field.name)", id: id) }
        }
    }

    struct CurrentRow {
        let version: Int64
        let pk: Int64
        /// The folded texts the row is indexed for search by.
        let title: String?
        let subtitle: String?
        /// The rowid of its search entry: `pk`, or its `ord` in an ordered table (nil while a
        /// write of this batch left it to be placed).
        let searchKey: Int64?
        /// The parent item of a child collection's item.
        let parent: String?
    }

    /// The row of `id`, locked for the write (`RowLock.update`): another process's writer of
    /// it waits, then finds the version this write commits.
    func currentRow(_ id: EntityID, in table: CatalogTable) throws -> CurrentRow? {
        var found: CurrentRow?
        try db.each(db.lockingRows(table.currentRowSQL, .update), [id.rawValue.databaseValue]) { row in
            let pk = row.integer(1) ?? 0
            found = CurrentRow(
                version: row.integer(0) ?? 0, pk: pk, title: row.text(2), subtitle: row.text(3), searchKey: table.ordered ? row.integer(4) : pk,
                parent: table.loggedParentColumn == nil ? nil : row.text(table.ordered ? 5 : 4))
            return false
        }
        return found
    }
}

extension StoreWrite {
    /// Applies the write with `writer` and marks its idempotency key applied.
    func apply(with writer: CatalogWriter, db: any SQLConnection) throws -> WrittenItems {
        let written = try writer.applyAll(write)
        if let idempotency { try markApplied(idempotency, db: db) }
        return written
    }

    /// Records in the write's savepoint that its idempotency key's write happened, on which item.
    func markApplied(_ mark: IdempotencyMark, db: any SQLConnection) throws {
        let (collection, id, operation): (String, String, String)
        switch write.operations.first {
        case .insert(let item, let name): (collection, id, operation) = (name, item.id.rawValue, "insert")
        case .update(let item, let name, _): (collection, id, operation) = (name, item.id.rawValue, "update")
        case .delete(let item, let name, _): (collection, id, operation) = (name, item.rawValue, "delete")
        case .applySearchBacklog, .group, nil: return
        }
        try IdempotencyStore.markApplied(db, mark, collection: collection, itemID: batch ?? id, operation: batch == nil ? operation : "batch")
    }
}
