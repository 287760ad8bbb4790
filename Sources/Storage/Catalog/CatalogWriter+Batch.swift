import Domain
import GRDB

/// A group commit's writes, applied in order inside its transaction, on either database.
///
/// A write that fails must leave no trace while the others of its batch commit. Most failures
/// are refusals found before anything is written (a stale `If-Match`, a missing item, a
/// reference to nothing, an id that exists), so a batch first runs without a savepoint per
/// write (on SQLite two statements and FTS5's savepoint hooks, on PostgreSQL two round
/// trips). A write that fails after it
/// wrote, or on a failed statement (which fails a PostgreSQL transaction), throws
/// `PartialWrite`: the caller rolls the transaction back and runs the batch again with
/// `savepoints`, each write in its own. A write that met another process's writer in a
/// deadlock (`StoreError.isContention`) fails the batch, which its store runs again whole.
extension CatalogWriter {
    /// A write of a batch run without savepoints failed after it had written.
    struct PartialWrite: Error {}

    /// Each write's result, in order. The writes' search entries and change-log entries are
    /// left in `search` and `changes` for the caller to apply, a failed write's taken back.
    mutating func apply(_ writes: [StoreWrite], savepoints: Bool) throws -> [Result<WrittenItems, StoreError>] {
        var results: [Result<WrittenItems, StoreError>] = []
        results.reserveCapacity(writes.count)
        try references.load(writes, tables: tables, db: db)
        var next = 0
        while next < writes.count {
            let run = savepoints ? 1 : insertRunLength(writes, from: next)
            if run > 1 {
                do {
                    results += try insertTogether(writes[next..<next + run])
                } catch let failure as StoreError where failure.isContention {
                    throw failure
                } catch {
                    throw PartialWrite()
                }
                next += run
                continue
            }
            let write = writes[next]
            next += 1
            let marks = (search: search.count, changes: changes.mark)
            author = write.author
            if savepoints {
                do {
                    var written: WrittenItems = []
                    try db.withSavepoint { written = try write.apply(with: self, db: db) }
                    results.append(.success(written))
                } catch let failure as StoreError where failure.isContention {
                    throw failure
                } catch {
                    search.discard(from: marks.search)
                    changes.discard(from: marks.changes)
                    results.append(.failure(StoreError.from(error)))
                }
                continue
            }
            let changed = db.changedRows
            do {
                results.append(.success(try write.apply(with: self, db: db)))
            } catch let refusal as StoreError where refusal.isRefusal && db.changedRows == changed && db.isTransactionUsable {
                search.discard(from: marks.search)
                changes.discard(from: marks.changes)
                results.append(.failure(refusal))
            } catch let failure as StoreError where failure.isContention {
                throw failure
            } catch {
                throw PartialWrite()
            }
        }
        return results
    }

    /// How many writes from `start` on can be inserted together: inserts into one collection,
    /// none referring to an item inserted before it in the run (it is checked before the run
    /// writes), at most `rowsPerInsert`.
    private func insertRunLength(_ writes: [StoreWrite], from start: Int) -> Int {
        // An outline's insert records an entry for its parent too (`touch`): one at a time.
        guard rowsPerInsert > 1, changes.recording, case .insert(_, let collection) = writes[start].write, let table = tables[collection],
            table.treeColumn == nil
        else {
            return 1
        }
        // A statement binds at most 65,535 values.
        let limit = min(rowsPerInsert, max(1, 30_000 / (2 + table.columns.count)))
        var ids = Set<EntityID>()
        var end = start
        while end < writes.count, end - start < limit, case .insert(let item, collection) = writes[end].write {
            if table.references.contains(where: { item[slot: $0.slot].reference.map(ids.contains) ?? false }) { break }
            ids.insert(item.id)
            end += 1
        }
        return end - start
    }

    /// Inserts a run of new items with as few statements as the run's size in powers of two
    /// (so that each table has few statement texts). An insert refused by its checks (a
    /// reference to nothing) is answered alone, before anything is written. An id that exists
    /// sends the batch back to run with savepoints (`PartialWrite`), where it is refused alone
    /// and its sequence taken back: ids are the server's, so that is rare.
    private func insertTogether(_ writes: ArraySlice<StoreWrite>) throws -> [Result<WrittenItems, StoreError>] {
        var results: [Result<WrittenItems, StoreError>] = []
        var rows: [(item: Item, version: Int64, columns: [(any DatabaseValueConvertible)?])] = []
        var table: CatalogTable?
        for write in writes {
            guard case .insert(let item, let collection) = write.write else { throw StoreError.invariant("an insert run holds \(write.write)") }
            let into = try table ?? self.table(collection)
            table = into
            do {
                let columns = try checkInsert(item, into: into)
                let version = changes.append(collection, item.id, .insert, author: write.author, parent: into.parentID(of: item))
                rows.append((item, version, columns))
                results.append(.success([Versioned(item: item, version: version)]))
            } catch let refusal as StoreError where refusal.isRefusal {
                results.append(.failure(refusal))
            }
        }
        guard let table else { return results }
        var start = 0
        while start < rows.count {
            var size = 1
            while size * 2 <= rows.count - start { size *= 2 }
            let chunk = rows[start..<start + size]
            let arguments = chunk.flatMap { row in
                [row.item.id.rawValue.databaseValue, row.version.databaseValue] + row.columns.map { $0?.databaseValue ?? .null }
            }
            let keys = try db.insertRows(table.insertNewSQL(rows: size), arguments)
            for row in chunk {
                guard let pk = keys[row.item.id.rawValue] else { throw PartialWrite() }
                recordSearch(of: row.columns, pk: pk, in: table)
            }
            start += size
        }
        for (write, result) in zip(writes, results) {
            guard case .success = result, let idempotency = write.idempotency else { continue }
            try write.markApplied(idempotency, db: db)
        }
        return results
    }
}

extension StoreError {
    /// Whether the failure only says another process's writer was in the way: PostgreSQL broke a
    /// deadlock between their row locks (40P01) or refused a serialization (40001). Running the
    /// batch again succeeds.
    var isContention: Bool {
        if case .inGroup(_, let failure) = self { return failure.isContention }
        guard case .postgres(let failure) = self, let sqlstate = failure.sqlstate else { return false }
        return sqlstate == "40P01" || sqlstate == "40001"
    }

    /// Whether the writer refused the write itself, before a statement failed: the transaction
    /// it ran in is intact.
    var isRefusal: Bool {
        switch self {
        case .missing, .versionMismatch, .invalidReference, .stillReferenced, .treeCycle, .treeTooDeep: true
        case .inGroup(_, let failure): failure.isRefusal
        default: false
        }
    }
}
