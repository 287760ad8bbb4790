import Domain
import GRDB

/// Applies one insert, update or delete inside the caller's transaction, change-log entry included.
///
/// Every check happens before anything is written, and the caller wraps each write in a
/// savepoint, so a failing write leaves no trace while the others of its batch commit.
struct ItemWriter {
    let db: Database
    /// Unix milliseconds recorded as the commit time of the entries this writer appends.
    let now: Int64

    /// Inserts `item` with a new change-log entry; with `bulkVersion`, the item takes that version
    /// and neither a change entry nor search work is noted (a bulk load does both when it ends).
    func insert(_ item: StoredItem, bulkVersion: Int64? = nil, search: inout SearchIndexChanges) throws -> Versioned<StoredItem> {
        let table = CollectionTable.of(item.collection)
        try checkKind(item.id, of: item.collection)
        if let current = try currentRow(item.id, in: table) {
            // Ids are assigned by the server; an existing one means "create" met an item: the
            // same answer as a failed `If-None-Match: *` precondition.
            throw StoreError.versionMismatch(current: current.version)
        }
        let departmentKey = try checkReferences(of: item)
        let version = try bulkVersion ?? ChangeLog.append(db, item.collection, item.id, .insert, at: now)
        let values: [(any DatabaseValueConvertible)?] =
            [item.id.rawValue, version] + (try ItemColumns.values(of: item, departmentKey: departmentKey))
        try db.cachedStatement(sql: table.insertSQL).execute(arguments: StatementArguments(values))
        if bulkVersion == nil && table.searchTable != nil {
            search.inserted(into: table.name, pk: db.lastInsertedRowID)
        }
        return Versioned(item: item, version: version)
    }

    func update(_ item: StoredItem, ifVersion: Int64?, search: inout SearchIndexChanges) throws -> Versioned<StoredItem> {
        let table = CollectionTable.of(item.collection)
        guard let current = try currentRow(item.id, in: table) else { throw StoreError.notFound(item.collection, item.id) }
        if let ifVersion, ifVersion != current.version { throw StoreError.versionMismatch(current: current.version) }
        let departmentKey = try checkReferences(of: item)
        let version = try ChangeLog.append(db, item.collection, item.id, .update, at: now)
        let statement = try db.cachedStatement(sql: table.updateSQL)
        let values: [(any DatabaseValueConvertible)?] =
            [version] + (try ItemColumns.values(of: item, departmentKey: departmentKey)) + [item.id.rawValue]
        try statement.execute(arguments: StatementArguments(values))
        if let title = current.title, let keys = SearchKeys.of(item), keys.title != title || keys.subtitle != current.subtitle {
            search.changing(in: table.name, pk: current.pk, title: title, subtitle: current.subtitle)
            search.inserted(into: table.name, pk: current.pk)
        }
        if case .department(let department) = item {
            // People pages grouped by department order by this copy of the department's name.
            try db.cachedStatement(sql: "UPDATE people SET department_key = ? WHERE department_id = ?")
                .execute(arguments: [searchFolded(department.name), department.id.rawValue])
        }
        return Versioned(item: item, version: version)
    }

    func delete(_ collection: StoredCollection, id: EntityID, ifVersion: Int64?, search: inout SearchIndexChanges) throws {
        let table = CollectionTable.of(collection)
        guard let current = try currentRow(id, in: table) else { throw StoreError.notFound(collection, id) }
        if let ifVersion, ifVersion != current.version { throw StoreError.versionMismatch(current: current.version) }
        switch collection {
        case .departments:
            let referenced = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM people WHERE department_id = ?)"), arguments: [id.rawValue])
            if referenced == true { throw StoreError.stillReferenced("department \(id) still has people") }
        case .tracks:
            // A track's samples go with it, each with its own change entry so the samples feed
            // reports the deletes.
            try db.cachedStatement(
                sql: """
                    INSERT INTO changes (collection, item_id, op, committed_at)
                    SELECT 'samples', id, 'delete', ? FROM samples WHERE track_id = ? ORDER BY timestamp_ms, id
                    """
            ).execute(arguments: [now, id.rawValue])
            try db.cachedStatement(sql: "DELETE FROM samples WHERE track_id = ?").execute(arguments: [id.rawValue])
        default:
            break
        }
        _ = try ChangeLog.append(db, collection, id, .delete, at: now)
        try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE id = ?").execute(arguments: [id.rawValue])
        if let title = current.title {
            search.changing(in: table.name, pk: current.pk, title: title, subtitle: current.subtitle)
        }
    }

    /// An item's row as the writer needs it: its version, key, and indexed search text.
    struct CurrentRow {
        let version: Int64
        let pk: Int64
        /// Nil for samples, which are not searched.
        let title: String?
        let subtitle: String?
    }

    func currentRow(_ id: EntityID, in table: CollectionTable) throws -> CurrentRow? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: table.currentRowSQL), arguments: [id.rawValue]) else { return nil }
        return CurrentRow(version: row[0], pk: row[1], title: row[2], subtitle: row[3])
    }

    private func checkKind(_ id: EntityID, of collection: StoredCollection) throws {
        guard id.kind == collection.kind else {
            throw StoreError.unavailable("\(id) is not an id of \(collection.rawValue)")
        }
    }

    /// Checks that what the item refers to exists; returns a person's department key.
    private func checkReferences(of item: StoredItem) throws -> String {
        switch item {
        case .person(let person):
            let key = try String.fetchOne(
                db.cachedStatement(sql: "SELECT title_key FROM departments WHERE id = ?"), arguments: [person.departmentID.rawValue])
            guard let key else { throw StoreError.invalidReference(field: "/departmentID", id: person.departmentID) }
            return key
        case .sample(let sample):
            let exists = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM tracks WHERE id = ?)"), arguments: [sample.trackID.rawValue])
            guard exists == true else { throw StoreError.invalidReference(field: "/trackID", id: sample.trackID) }
            return ""
        default:
            return ""
        }
    }
}
