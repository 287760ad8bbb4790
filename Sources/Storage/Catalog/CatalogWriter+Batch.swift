import Domain

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
    mutating func apply(_ writes: [StoreWrite], savepoints: Bool) throws -> [Result<Versioned<Item>?, StoreError>] {
        var results: [Result<Versioned<Item>?, StoreError>] = []
        results.reserveCapacity(writes.count)
        for write in writes {
            let marks = (search: search.count, changes: changes.mark)
            author = write.author
            if savepoints {
                do {
                    var written: Versioned<Item>?
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
}

extension StoreError {
    /// Whether the failure only says another process's writer was in the way: PostgreSQL broke a
    /// deadlock between their row locks (40P01) or refused a serialization (40001). Running the
    /// batch again succeeds.
    var isContention: Bool {
        guard case .postgres(let failure) = self, let sqlstate = failure.sqlstate else { return false }
        return sqlstate == "40P01" || sqlstate == "40001"
    }

    /// Whether the writer refused the write itself, before a statement failed: the transaction
    /// it ran in is intact.
    var isRefusal: Bool {
        switch self {
        case .missing, .versionMismatch, .invalidReference, .stillReferenced: true
        default: false
        }
    }
}
