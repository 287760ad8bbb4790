import Domain
import Foundation
import GRDB

/// Writes on PostgreSQL, group-committed as on SQLite: one drain at a time takes every queued
/// write, applies them inside one transaction (behind the advisory lock all instances' writers
/// take; `CatalogWriter.apply`: without a savepoint per write unless one failed after it wrote),
/// commits once, notifies the other instances, then answers.
extension PostgresStore {
    public func submit(_ write: StoreWrite) async throws(StoreError) -> Versioned<Item>? {
        try await queue.submit(write) { writer.async { [self] in drain() } }
    }

    private func drain() {
        while true {
            let batch = queue.take(options.maximumBatchSize)
            if batch.isEmpty { return }
            let results = commit(batch.map(\.operation))
            for (request, result) in zip(batch, results) { request.answer(result) }
        }
    }

    private func commit(_ writes: [StoreWrite]) -> [Result<Versioned<Item>?, StoreError>] {
        do {
            do {
                return try commit(writes, savepoints: false)
            } catch is CatalogWriter.PartialWrite {
                return try commit(writes, savepoints: true)
            }
        } catch {
            let failure = StoreError.from(error)
            return writes.map { _ in .failure(failure) }
        }
    }

    private func commit(_ writes: [StoreWrite], savepoints: Bool) throws -> [Result<Versioned<Item>?, StoreError>] {
        let (results, committed) = try pool.writing { db in
            var counters: [String: Int64] = [:]
            try db.each("SELECT name, value FROM store_counters WHERE name IN ('latest', 'pruned_through')", []) { row in
                if let name = row.text(0), let value = row.integer(1) { counters[name] = value }
                return true
            }
            let start = counters["latest"] ?? 0
            var writer = CatalogWriter(
                db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog, changes: PendingChanges(after: start))
            let results = try writer.apply(writes, savepoints: savepoints)
            return (results, try finish(db, writer.changes, prunedThrough: counters["pruned_through"] ?? 0))
        }
        // The writers' lock was held from `start` on: the log's entries after it are this
        // transaction's, all named, so the window of recent changes follows on without a read.
        state.withLock { state in
            state.apply(versions: committed.versions, latest: committed.latest)
            state.recent.follow(committed.changes, after: committed.start, through: committed.latest)
        }
        return results
    }

    /// Writes the transaction's change-log entries (those the retention keeps, `force`: all a
    /// load's pruned at once), records each written collection's version and the latest
    /// sequence, prunes the log, and notifies every instance's listener (delivered when the
    /// transaction commits). `prunedThrough`: the log's counter, read in the transaction (nil:
    /// read it here).
    func finish(_ db: any SQLConnection, _ changes: PendingChanges, prunedThrough: Int64? = nil, force: Bool = false) throws -> (
        versions: [String: Int64], latest: Int64, start: Int64, changes: [ChangedItem]
    ) {
        let start = changes.start
        let latest = changes.last
        let cutoff = latest - Int64(options.changeRetention)
        try changes.write(db, now: CatalogStore.now(), after: force ? cutoff : 0)
        let versions = changes.versions
        guard latest > start else { return (versions, latest, start, changes.changed) }
        var counters = versions.map { ("version.\($0.key)", $0.value) } + [("latest", latest)]
        let pruned = try prunedThrough ?? db.integer("SELECT value FROM store_counters WHERE name = 'pruned_through'", []) ?? 0
        let pruneStep = Int64(max(1, min(1_000, options.changeRetention / 10)))
        if cutoff > pruned && (force || cutoff - pruned >= pruneStep) {
            try db.run("DELETE FROM changes WHERE seq <= ?", [cutoff.databaseValue])
            counters.append(("pruned_through", cutoff))
        }
        // One statement for every counter: a round trip each cost a batch as much as a write.
        try db.run(
            "INSERT INTO store_counters (name, value) VALUES " + repeatElement("(?, ?)", count: counters.count).joined(separator: ", ")
                + " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            counters.flatMap { [$0.0.databaseValue, $0.1.databaseValue] })
        try db.run("SELECT pg_notify(?, ?)", [Self.channel.databaseValue, String(latest).databaseValue])
        return (versions, latest, start, changes.changed)
    }

    /// Writes `items` in one transaction, referenced items first as given (a new database's demo data).
    public func seed(_ items: [(collection: CollectionDefinition, item: Item)]) throws(StoreError) {
        do {
            let committed = try pool.writing { db in
                let start = try db.integer(Self.latestSQL, []) ?? 0
                let writer = CatalogWriter(
                    db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog, changes: PendingChanges(after: start))
                for (collection, item) in items {
                    guard let table = tables[collection.name] else { continue }
                    _ = try writer.insert(item, into: table)
                }
                return try finish(db, writer.changes, force: true)
            }
            state.withLock { $0.apply(versions: committed.versions, latest: committed.latest) }
        } catch {
            throw StoreError.from(error)
        }
    }
}
