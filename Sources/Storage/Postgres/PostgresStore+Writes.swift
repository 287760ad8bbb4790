import Domain
import GRDB

/// Writes on PostgreSQL, group-committed as on SQLite: one drain at a time takes every queued
/// write, applies them inside one transaction (`CatalogWriter.apply`: without a savepoint per
/// write unless one failed after it wrote), commits once, notifies the other instances, then
/// answers.
///
/// The writes of several instances run at once: each write locks the rows it changes and the
/// items its references point to (`RowLock`), so two writers of one item take turns and the
/// second finds the version the first committed. Only the change log is serialized: a batch
/// writes with provisional sequences (`provisionalSequences`), then takes the advisory lock every
/// instance's writer takes, reads the log's latest sequence, moves its sequences and its rows'
/// versions after it (`PendingChanges.rebase`; one UPDATE per collection), writes its entries
/// and commits. Sequences are so handed out in commit order, and a feed read never skips one that
/// commits later. Writers that wait on each other's rows in a cycle are told apart by
/// PostgreSQL (a deadlock, 40P01): the batch runs again.
extension PostgresStore {
    public func submit(_ write: StoreWrite) async throws(StoreError) -> WrittenItems {
        try await queue.submit(write) { writer.async { [self] in drain() } }
    }

    public func submit(all writes: [StoreWrite]) async -> [Result<WrittenItems, StoreError>] {
        await queue.submit(all: writes) { writer.async { [self] in drain() } }
    }

    private func drain() {
        while true {
            let batch = queue.take(options.maximumBatchSize)
            if batch.isEmpty { return }
            let results = commit(batch.map(\.operation))
            for (request, result) in zip(batch, results) { request.answer(result) }
        }
    }

    private func commit(_ writes: [StoreWrite]) -> [Result<WrittenItems, StoreError>] {
        var savepoints = false
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try commit(writes, savepoints: savepoints)
            } catch is CatalogWriter.PartialWrite {
                savepoints = true
            } catch let failure as StoreError where failure.isContention && attempts < Self.attemptsOnContention {
                continue
            } catch {
                let failure = StoreError.from(error)
                return writes.map { _ in .failure(failure) }
            }
        }
    }

    /// The most new rows one INSERT of a batch writes: each statement is a round trip.
    static let rowsPerInsert = 64

    /// How many times a batch runs when writers of other instances keep deadlocking it.
    static let attemptsOnContention = 5

    /// Where a batch's sequences start until it holds the writers' lock: below every version a
    /// row or a client can hold, so a version this batch wrote never passes for one another
    /// committed (an `If-Match` of a later write in the batch meets it as a mismatch), and far
    /// enough from the largest for the move to stay in range.
    static let provisionalSequences = Int64.min / 2

    private func commit(_ writes: [StoreWrite], savepoints: Bool) throws -> [Result<WrittenItems, StoreError>] {
        let (results, committed) = try pool.writing(locked: false) { db in
            var writer = CatalogWriter(
                db: db, now: CatalogStore.now(), tables: tables, renderers: renderers, catalog: catalog,
                changes: PendingChanges(after: Self.provisionalSequences), rowsPerInsert: Self.rowsPerInsert)
            var results = try writer.apply(writes, savepoints: savepoints)
            let counters = try Self.lockWritersAndReadCounters(db)
            let start = counters["latest"] ?? 0
            let moved = writer.changes.rebase(onto: start)
            var moves: [(sql: String, arguments: [DatabaseValue])] = []
            if moved != 0 {
                for (collection, ids) in writer.changes.itemsByCollection {
                    let table = try table(collection)
                    for chunk in stride(from: 0, to: ids.count, by: PendingChanges.rowsPerStatement).map({
                        ids[$0..<min($0 + PendingChanges.rowsPerStatement, ids.count)]
                    }) {
                        moves.append(
                            (
                                "UPDATE \(CatalogTable.quote(table.name)) SET version = version + ? WHERE id IN ("
                                    + repeatElement("?", count: chunk.count).joined(separator: ", ") + ")",
                                [moved.databaseValue] + chunk.map { $0.rawValue.databaseValue }
                            ))
                    }
                }
                results = results.map { result in Self.moved(result, by: moved) }
            }
            return (results, try finish(db, writer.changes, prunedThrough: counters["pruned_through"] ?? 0, with: moves))
        }
        // The writers' lock was held from `start` on: the log's entries after it are this
        // transaction's, all named, so the window of recent changes follows on without a read.
        state.withLock { state in
            state.apply(versions: committed.versions, latest: committed.latest)
            state.recent.follow(committed.changes, after: committed.start, through: committed.latest)
        }
        return results
    }

    /// `result` with a provisional version in it (an item written, or the current version a
    /// refusal names, which an earlier write of the batch made) moved to its sequence.
    static func moved(_ result: Result<WrittenItems, StoreError>, by delta: Int64) -> Result<WrittenItems, StoreError> {
        switch result {
        case .success(let written):
            .success(
                written.map { item in
                    guard let item, item.version < 0 else { return item }
                    return Versioned(item: item.item, version: item.version + delta)
                })
        case .failure(let failure): .failure(moved(failure, by: delta))
        }
    }

    private static func moved(_ failure: StoreError, by delta: Int64) -> StoreError {
        switch failure {
        case .versionMismatch(let current) where current < 0: .versionMismatch(current: current + delta)
        case .inGroup(let operation, let inner): .inGroup(operation: operation, moved(inner, by: delta))
        default: failure
        }
    }

    /// Takes the writers' lock, then reads the log's counters, in one round trip (each statement
    /// of a script takes its snapshot when it starts: the read sees every batch that held the
    /// lock before). Under writers of several instances, every round trip made under the lock
    /// is one every other instance's batch waits for.
    static func lockWritersAndReadCounters(_ db: any SQLConnection) throws -> [String: Int64] {
        guard let connection = db as? PostgresConnection else { throw StoreError.invariant("a PostgreSQL write on another database") }
        let result = try connection.script(
            PostgresPool.lockWritersSQL + "; SELECT name, value FROM store_counters WHERE name IN ('latest', 'pruned_through')")
        var counters: [String: Int64] = [:]
        for row in 0..<result.rowCount {
            if let name = result.text(row, 0), let value = try result.integer(row, 1) { counters[name] = value }
        }
        return counters
    }

    /// Writes the transaction's change-log entries (those the retention keeps, `force`: all a
    /// load's pruned at once), records each written collection's version and the latest
    /// sequence, prunes the log, and notifies every instance's listener (delivered when the
    /// transaction commits). `prunedThrough`: the log's counter, read in the transaction (nil:
    /// read it here). `statements` (the move of the batch's versions) run with the entries.
    ///
    /// The statements, the entries, the counters and the notification are one statement (a
    /// data-modifying WITH each): one round trip under the writers' lock, where there was one
    /// each. None of them reads what another writes.
    func finish(
        _ db: any SQLConnection, _ changes: PendingChanges, prunedThrough: Int64? = nil, force: Bool = false,
        with statements: [(sql: String, arguments: [DatabaseValue])] = []
    ) throws -> (versions: [String: Int64], latest: Int64, start: Int64, changes: [ChangedItem]) {
        let start = changes.start
        let latest = changes.last
        let cutoff = latest - Int64(options.changeRetention)
        let versions = changes.versions
        guard latest > start else {
            for statement in statements { try db.run(statement.sql, statement.arguments) }
            return (versions, latest, start, changes.changed)
        }
        var counters = versions.map { ("version.\($0.key)", $0.value) } + [("latest", latest)]
        let pruned = try prunedThrough ?? db.integer("SELECT value FROM store_counters WHERE name = 'pruned_through'", []) ?? 0
        let pruneStep = Int64(max(1, min(1_000, options.changeRetention / 10)))
        let prunes = cutoff > pruned && (force || cutoff - pruned >= pruneStep)
        if prunes {
            try Self.prune(db, through: cutoff)
            counters.append(("pruned_through", cutoff))
        }
        // Entries the prune would have taken are not written (a batch longer than the retention).
        var statements = statements + changes.statements(now: CatalogStore.now(), after: prunes || force ? cutoff : 0)
        // A load's many entries go one statement each: one statement binds at most 65,535 values.
        if statements.reduce(0, { $0 + $1.arguments.count }) > PendingChanges.rowsPerStatement * 6 {
            for statement in statements { try db.run(statement.sql, statement.arguments) }
            statements = []
        }
        let parts =
            statements.enumerated().map { index, statement in "s\(index) AS (\(statement.sql))" }
            + [
                "counters AS (INSERT INTO store_counters (name, value) VALUES "
                    + repeatElement("(?, ?)", count: counters.count).joined(separator: ", ")
                    + " ON CONFLICT (name) DO UPDATE SET value = excluded.value)"
            ]
        try db.run(
            "WITH " + parts.joined(separator: ", ") + " SELECT pg_notify(?, ?)",
            statements.flatMap(\.arguments) + counters.flatMap { [$0.0.databaseValue, $0.1.databaseValue] }
                + [Self.channel.databaseValue, String(latest).databaseValue])
        return (versions, latest, start, changes.changed)
    }

    /// Deletes the log's entries through `cutoff`, planned for its value: a generic plan of
    /// `seq <= $1` guesses a third of the log and reads all of it, where the entries pruned are
    /// the index's first few.
    static func prune(_ db: any SQLConnection, through cutoff: Int64) throws {
        let sql = "DELETE FROM changes WHERE seq <= ?"
        guard let connection = db as? PostgresConnection else {
            _ = try db.run(sql, [cutoff.databaseValue])
            return
        }
        try connection.execute(PostgresConnection.numbered(sql), [.integer(cutoff)])
    }

    /// Writes `items` in one transaction, referenced items first as given (a new database's demo data).
    public func seed(_ items: [(collection: CollectionDefinition, item: Item)]) throws(StoreError) {
        try StoreError.catching {
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
        }
    }
}
