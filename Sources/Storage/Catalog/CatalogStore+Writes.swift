import Domain
import Foundation
import GRDB

/// Writes with group commit: one drain at a time takes every queued write, applies them inside
/// one transaction (`CatalogWriter.apply`: without a savepoint per write unless one failed after
/// it wrote), commits once, and only then answers the writers.
extension CatalogStore {
    public func submit(_ write: StoreWrite) async throws(StoreError) -> WrittenItems {
        try await queue.submit(write) { pool.asyncWriteWithoutTransaction { [self] db in drain(db) } }
    }

    public func submit(all writes: [StoreWrite]) async -> [Result<WrittenItems, StoreError>] {
        await queue.submit(all: writes) { pool.asyncWriteWithoutTransaction { [self] db in drain(db) } }
    }

    /// Has the writer index the search backlog (`SearchBacklog`) in the next commit, and returns
    /// once that commit is durable: what a test that reads the index itself waits for (a search
    /// needs no such commit). Blocks the calling thread; the writer runs on GRDB's queue, never
    /// on the caller's.
    func applySearchBacklog() throws(StoreError) {
        let done = DispatchSemaphore(value: 0)
        let failure = Locked<StoreError?>(nil)
        let request = WriteQueue<StoreWrite, WrittenItems>.Request(operation: StoreWrite(write: .applySearchBacklog)) { result in
            if case .failure(let error) = result { failure.withLock { $0 = error } }
            done.signal()
        }
        if queue.enqueue(request) {
            pool.asyncWriteWithoutTransaction { [self] db in drain(db) }
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private func drain(_ db: Database) {
        while true {
            gatherArrivals()
            let batch = queue.take(options.maximumBatchSize)
            if batch.isEmpty { return }
            let results = commit(batch.map(\.operation), in: db)
            for (request, result) in zip(batch, results) { request.answer(result) }
        }
    }

    /// Waits up to a millisecond while writes keep arriving, so concurrent writers share commits.
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

    private func commit(_ writes: [StoreWrite], in db: Database) -> [Result<WrittenItems, StoreError>] {
        let now = CatalogStore.now()
        do {
            do {
                return try commit(writes, in: db, now: now, savepoints: false)
            } catch is CatalogWriter.PartialWrite {
                return try commit(writes, in: db, now: now, savepoints: true)
            }
        } catch {
            let failure = StoreError.from(error)
            counters.withLock { $0.failedWrites += writes.count }
            return writes.map { _ in .failure(failure) }
        }
    }

    private func commit(
        _ writes: [StoreWrite], in db: Database, now: Int64, savepoints: Bool
    ) throws -> [Result<WrittenItems, StoreError>] {
        var results: [Result<WrittenItems, StoreError>] = []
        var versions: [String: Int64] = [:]
        var latest: Int64 = 0
        var changes: [ChangedItem]?
        var startSequence: Int64 = 0
        var before: UInt32 = 0
        var learned: [String: KnownGrams.Sets] = [:]
        // Index the search backlog first (before any write could change a row it names), and this
        // batch's own entries after its writes; or leave this batch's inserts in the backlog.
        let waiting = searchBacklogCount.withLock { $0 }
        let indexes =
            waiting + writes.count > options.searchBacklogLimit
            || writes.contains { $0.write.removesSearchEntries || $0.write.isApplySearchBacklog }
        var backlogged = 0
        try db.inTransaction(.immediate) {
            before = commits.value
            let start = try ChangeLog.latestSequence(db)
            var writer = CatalogWriter(
                db: db, now: now, tables: tables, renderers: renderers, catalog: catalog, changes: PendingChanges(after: start))
            if indexes { try SearchBacklog.take(db, tables: tables, into: writer.search) }
            results = try writer.apply(writes, savepoints: savepoints)
            try writer.changes.write(db, now: now)
            learned = try knownGrams.withLock { known in
                known.begin(at: before)
                return indexes ? try writer.search.apply(db, known: known) : [:]
            }
            if !indexes && writer.search.count > 0 {
                try SearchBacklog.record(db, first: start + 1, last: writer.changes.last)
                backlogged = writer.search.count
            }
            (versions, latest) = try finish(db, versions: writer.changes.versions, since: start, force: false)
            changes = writer.changes.changed
            startSequence = start
            return .commit
        }
        searchBacklogCount.withLock { $0 = indexes ? 0 : $0 + backlogged }
        // A transaction that wrote nothing (every write refused; the backlog indexed by the commit
        // before) did not move the counter: what is known and the keys' stamp stay as they were,
        // or they would vouch for another process's next commit.
        if commits.value == before &+ 1 {
            knownGrams.withLock { $0.commit(learned, startedAt: before) }
            keys.vouch(commitAfter: before)
        }
        state.withLock { $0.apply(versions: versions, latest: latest, committedAfter: before, changes: changes, since: startSequence) }
        let succeeded = zip(writes, results).count { write, result in
            if case .success = result { !write.write.isApplySearchBacklog } else { false }
        }
        let flushes = writes.count { $0.write.isApplySearchBacklog }
        counters.withLock { counters in
            counters.commits += 1
            counters.writes += succeeded
            counters.failedWrites += writes.count - flushes - succeeded
        }
        return results
    }

    /// Records each written collection's new version and prunes the log (see `ChangeLog.finish`).
    /// `loaded`: versions of a bulk load's collections, whose entries the retention may have
    /// left out of the log.
    func finish(_ db: Database, since start: Int64, force: Bool = false, loaded: [String: Int64] = [:]) throws -> (
        versions: [String: Int64], latest: Int64
    ) {
        var versions = loaded
        // NOT INDEXED: only this transaction's entries, a range of the rowid. Left to itself,
        // SQLite answers the GROUP BY from the (collection, seq) index, reading every entry the
        // log retains per commit.
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT collection, MAX(seq) FROM changes NOT INDEXED WHERE seq > ? GROUP BY collection"), arguments: [start])
        while let row = try rows.next() {
            let name: String = row[0]
            versions[name] = max(versions[name] ?? 0, row[1])
        }
        return try finish(db, versions: versions, since: start, force: force)
    }

    private func finish(_ db: Database, versions: [String: Int64], since start: Int64, force: Bool) throws -> (
        versions: [String: Int64], latest: Int64
    ) {
        for (name, version) in versions { try ChangeLog.setCounter(db, "version.\(name)", version) }
        let latest = max(start, versions.values.max() ?? start)
        let cutoff = latest - Int64(options.changeRetention)
        let pruned = try ChangeLog.prunedThrough(db)
        let pruneStep = Int64(max(1, min(1_000, options.changeRetention / 10)))
        if cutoff > pruned && (force || cutoff - pruned >= pruneStep) {
            // The backlog finds its inserts by their entries: index it before they go.
            if let first = try SearchBacklog.firstWaiting(db), first <= cutoff { try SearchBacklog.apply(db, tables: tables) }
            try db.cachedStatement(sql: "DELETE FROM changes WHERE seq <= ?").execute(arguments: [cutoff])
            try ChangeLog.setCounter(db, "pruned_through", cutoff)
        }
        return (versions, latest)
    }

    /// Writes `items` in one transaction, referenced items first as given, each with its change
    /// entry (a new database's demo data, an import's batch).
    public func seed(_ items: [(collection: CollectionDefinition, item: Item)]) throws(StoreError) {
        try StoreError.catching {
            var before: UInt32 = 0
            let (versions, latest) = try pool.write { db in
                before = commits.value
                let start = try ChangeLog.latestSequence(db)
                let writer = CatalogWriter(
                    db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog, changes: PendingChanges(after: start))
                for (collection, item) in items {
                    guard let table = tables[collection.name] else { continue }
                    _ = try writer.insert(item, into: table)
                }
                try writer.changes.write(db, now: writer.now)
                try writer.search.apply(db)
                return try finish(db, versions: writer.changes.versions, since: start, force: true)
            }
            // Its items are not named: kept answers made before it are not vouched for.
            state.withLock { $0.apply(versions: versions, latest: latest, committedAfter: before, changes: nil, since: latest) }
        }
    }
}
