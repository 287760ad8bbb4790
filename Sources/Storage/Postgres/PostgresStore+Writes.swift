import Domain
import Foundation
import GRDB

/// Writes on PostgreSQL, group-committed as on SQLite: one drain at a time takes every queued
/// write, applies each in its own savepoint inside one transaction (behind the advisory lock all
/// instances' writers take), commits once, notifies the other instances, then answers.
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
        var results: [Result<Versioned<Item>?, StoreError>] = []
        do {
            let committed = try pool.writing { db in
                results.removeAll()
                var writer = CatalogWriter(db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog)
                let start = try db.integer(Self.latestSQL, []) ?? 0
                for write in writes {
                    writer.author = write.author
                    try db.run("SAVEPOINT write", [])
                    do {
                        let written = try write.apply(with: writer, db: db)
                        try db.run("RELEASE SAVEPOINT write", [])
                        results.append(.success(written))
                    } catch {
                        // A statement that failed for the connection's sake fails these too, and the whole batch with them.
                        try db.run("ROLLBACK TO SAVEPOINT write", [])
                        try db.run("RELEASE SAVEPOINT write", [])
                        results.append(.failure(StoreError.from(error)))
                    }
                }
                return (start: start, finished: try finish(db, since: start, naming: true))
            }
            // The writers' lock was held from `start` on: the log's entries after it are this
            // transaction's, all named, so the window of recent changes follows on without a read.
            state.withLock { state in
                state.apply(versions: committed.finished.versions, latest: committed.finished.latest)
                state.recent.follow(committed.finished.changes, after: committed.start, through: committed.finished.latest)
            }
            return results
        } catch {
            let failure = StoreError.from(error)
            return writes.map { _ in .failure(failure) }
        }
    }

    /// Records each written collection's version and the latest sequence, prunes the log, and
    /// notifies every instance's listener (delivered when the transaction commits).
    ///
    /// `naming`: the items it changed are read one by one and returned (a group commit's, as
    /// many as its writes); otherwise only each collection's newest (a load's).
    /// An entry whose id does not parse leaves the items unnamed (nil).
    func finish(_ db: any SQLConnection, since start: Int64, force: Bool = false, naming: Bool = false) throws -> (
        versions: [String: Int64], latest: Int64, changes: [ChangedItem]?
    ) {
        var versions: [String: Int64] = [:]
        var changes: [ChangedItem]?
        if naming {
            (versions, changes) = try ChangeLogTail.committed(db, "SELECT seq, collection, item_id FROM changes WHERE seq > ?", after: start)
        } else {
            try db.each("SELECT collection, MAX(seq) FROM changes WHERE seq > ? GROUP BY collection", [start.databaseValue]) { row in
                if let name = row.text(0), let version = row.integer(1) { versions[name] = version }
                return true
            }
        }
        let counter = "INSERT INTO store_counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
        for (name, version) in versions { try db.run(counter, ["version.\(name)".databaseValue, version.databaseValue]) }
        let latest = max(start, versions.values.max() ?? start)
        guard latest > start else { return (versions, latest, changes) }
        try db.run(counter, ["latest".databaseValue, latest.databaseValue])
        let cutoff = latest - Int64(options.changeRetention)
        let pruned = try db.integer("SELECT value FROM store_counters WHERE name = 'pruned_through'", []) ?? 0
        let pruneStep = Int64(max(1, min(1_000, options.changeRetention / 10)))
        if cutoff > pruned && (force || cutoff - pruned >= pruneStep) {
            try db.run("DELETE FROM changes WHERE seq <= ?", [cutoff.databaseValue])
            try db.run(counter, ["pruned_through".databaseValue, cutoff.databaseValue])
        }
        try db.run("SELECT pg_notify(?, ?)", [Self.channel.databaseValue, String(latest).databaseValue])
        return (versions, latest, changes)
    }

    /// Writes `items` in one transaction, referenced items first as given (a new database's demo data).
    public func seed(_ items: [(collection: CollectionDefinition, item: Item)]) throws(StoreError) {
        do {
            let committed = try pool.writing { db in
                let writer = CatalogWriter(db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog)
                let start = try db.integer(Self.latestSQL, []) ?? 0
                for (collection, item) in items {
                    guard let table = tables[collection.name] else { continue }
                    _ = try writer.insert(item, into: table)
                }
                return try finish(db, since: start, force: true)
            }
            state.withLock { $0.apply(versions: committed.versions, latest: committed.latest) }
        } catch {
            throw StoreError.from(error)
        }
    }
}
