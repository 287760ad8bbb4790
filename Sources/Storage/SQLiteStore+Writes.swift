import Domain
import Foundation
import GRDB

/// Writes with group commit.
///
/// A write queues itself and suspends. One drain at a time runs on GRDB's writer queue (a
/// dispatch queue, not Swift's cooperative pool): it takes every queued write, applies each in
/// its own savepoint inside one transaction, commits once, and only then resumes the writers.
/// While that commit waits for fsync, new writes queue up and form the next batch, so the
/// number of commits per second stays near what the disk allows while writes per second grow
/// with concurrency.
extension SQLiteStore {
    public func insert(_ item: StoredItem) async throws(StoreError) -> Versioned<StoredItem> {
        guard let written = try await submit(.insert(item)) else { throw StoreError.unavailable("insert returned no item") }
        return written
    }

    public func update(_ item: StoredItem, ifVersion: Int64?) async throws(StoreError) -> Versioned<StoredItem> {
        guard let written = try await submit(.update(item, ifVersion: ifVersion)) else {
            throw StoreError.unavailable("update returned no item")
        }
        return written
    }

    public func delete(_ collection: StoredCollection, id: EntityID, ifVersion: Int64?) async throws(StoreError) {
        _ = try await submit(.delete(collection, id, ifVersion: ifVersion))
    }

    /// What the writer has done since the store opened.
    public var writeCounters: WriteCounters {
        counters.withLock { $0 }
    }

    private func submit(_ operation: WriteOperation) async throws(StoreError) -> Versioned<StoredItem>? {
        let result = await withCheckedContinuation { continuation in
            if queue.enqueue(WriteQueue.Request(operation: operation, continuation: continuation)) {
                pool.asyncWriteWithoutTransaction { [self] db in drain(db) }
            }
        }
        return try result.get()
    }

    /// Commits batches until the queue is empty.
    private func drain(_ db: Database) {
        while true {
            gatherArrivals()
            let batch = queue.take(options.maximumBatchSize)
            if batch.isEmpty { return }
            let results = commit(batch.map(\.operation), in: db)
            for (request, result) in zip(batch, results) {
                request.continuation.resume(returning: result)
            }
        }
    }

    /// Waits while writes keep arriving, up to a millisecond, before the writer takes a batch.
    ///
    /// The writers answered by the last commit submit their next writes a fraction of a
    /// millisecond later. Without the wait, the next batch leaves without them and concurrent
    /// writers settle into two alternating half-size batches; a commit costs about the same
    /// whatever its size (the fsync dominates), so that halves throughput. A lone writer pays one
    /// 100 µs check per write.
    private func gatherArrivals() {
        var waited = 0
        var count = queue.count
        while waited < 10 && count < options.maximumBatchSize {
            usleep(100)
            waited += 1
            let now = queue.count
            if now == count { return }
            count = now
        }
    }

    /// Applies a batch in one transaction, one savepoint per write; returns each write's result.
    private func commit(_ operations: [WriteOperation], in db: Database) -> [Result<Versioned<StoredItem>?, StoreError>] {
        var results: [Result<Versioned<StoredItem>?, StoreError>] = []
        results.reserveCapacity(operations.count)
        let writer = ItemWriter(db: db, now: Self.now())
        do {
            var update = StoreState.Update(latest: 0)
            try db.inTransaction(.immediate) {
                let start = try ChangeLog.latestSequence(db)
                var search = SearchIndexChanges()
                for operation in operations {
                    var written: Versioned<StoredItem>?
                    var noted = SearchIndexChanges()
                    do {
                        try db.inSavepoint {
                            written = try writer.apply(operation, search: &noted)
                            return .commit
                        }
                        search.merge(noted)
                        results.append(.success(written))
                    } catch {
                        results.append(.failure(StoreError.from(error)))
                    }
                }
                try search.apply(db)
                update = try ChangeLog.finish(db, since: start, retention: options.changeRetention)
                return .commit
            }
            state.withLock { $0.apply(update) }
            let succeeded = results.count(where: isSuccess)
            counters.withLock { counters in
                counters.commits += 1
                counters.writes += succeeded
                counters.failedWrites += operations.count - succeeded
            }
            return results
        } catch {
            // The transaction did not commit: none of the batch was written.
            let failure = StoreError.from(error)
            counters.withLock { $0.failedWrites += operations.count }
            return operations.map { _ in .failure(failure) }
        }
    }

    private func isSuccess(_ result: Result<Versioned<StoredItem>?, StoreError>) -> Bool {
        if case .success = result { return true }
        return false
    }

    static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
    }
}

extension ItemWriter {
    func apply(_ operation: WriteOperation, search: inout SearchIndexChanges) throws -> Versioned<StoredItem>? {
        switch operation {
        case .insert(let item): return try insert(item, search: &search)
        case .update(let item, let ifVersion): return try update(item, ifVersion: ifVersion, search: &search)
        case .delete(let collection, let id, let ifVersion):
            try delete(collection, id: id, ifVersion: ifVersion, search: &search)
            return nil
        }
    }
}
