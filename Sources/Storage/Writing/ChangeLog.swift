import Domain
import GRDB

/// The change log: one entry per committed insert, update and delete, written in the same
/// transaction as the write itself.
///
/// An entry's `seq` is the written item's new version, so an item's version, its collection's
/// version and the change feed all come from one counter. Entries are pruned oldest first so
/// that about `retention` remain; `pruned_through` records the newest pruned sequence, which is
/// what makes an old feed token detectably expired rather than silently incomplete.
enum ChangeLog {
    /// Appends an entry and returns its sequence.
    static func append(_ db: Database, _ collection: StoredCollection, _ id: EntityID, _ operation: Change.Operation, at time: Int64) throws
        -> Int64
    {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO changes (collection, item_id, op, committed_at) VALUES (?, ?, ?, ?)")
        try statement.execute(arguments: [collection.rawValue, id.rawValue, operation.rawValue, time])
        return db.lastInsertedRowID
    }

    /// The newest sequence ever handed out (pruning does not lower it).
    static func latestSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'")) ?? 0
    }

    /// The newest pruned sequence; 0 when nothing was ever pruned.
    static func prunedThrough(_ db: Database) throws -> Int64 {
        try counter(db, "pruned_through")
    }

    static func counter(_ db: Database, _ name: String) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM store_counters WHERE name = ?"), arguments: [name]) ?? 0
    }

    static func setCounter(_ db: Database, _ name: String, _ value: Int64) throws {
        try db.cachedStatement(
            sql: "INSERT INTO store_counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
        ).execute(arguments: [name, value])
    }

    static func versionCounter(_ collection: StoredCollection) -> String { "version.\(collection.rawValue)" }

    /// The versions and latest sequence of a database, as the store keeps them in memory.
    static func loadState(_ db: Database) throws -> StoreState {
        var state = StoreState()
        for collection in StoredCollection.allCases {
            state.versions[collection] = try counter(db, versionCounter(collection))
        }
        state.latest = try latestSequence(db)
        return state
    }

    /// Ends a write transaction: records the new version of every collection written since
    /// `start` (from the log, and `known` for bulk-loaded items whose entries were never
    /// written), prunes the log, and returns what the in-memory state becomes after the commit.
    ///
    /// Pruning waits until `pruneStep` entries are due, so a busy writer deletes in chunks rather
    /// than one row per commit; `force` prunes whatever is due (bulk loads).
    static func finish(
        _ db: Database, since start: Int64, retention: Int, force: Bool = false, versions known: [StoredCollection: Int64] = [:]
    ) throws -> StoreState.Update {
        var update = StoreState.Update(latest: start)
        update.merge(known)
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT collection, MAX(seq) FROM changes WHERE seq > ? GROUP BY collection"),
            arguments: [start])
        while let row = try rows.next() {
            let name: String = row[0]
            let sequence: Int64 = row[1]
            guard let collection = StoredCollection(rawValue: name) else { continue }
            update.merge([collection: sequence])
        }
        for (collection, version) in update.versions {
            try setCounter(db, versionCounter(collection), version)
        }
        let cutoff = update.latest - Int64(retention)
        let pruned = try prunedThrough(db)
        let pruneStep = Int64(max(1, min(1_000, retention / 10)))
        if cutoff > pruned && (force || cutoff - pruned >= pruneStep) {
            try db.cachedStatement(sql: "DELETE FROM changes WHERE seq <= ?").execute(arguments: [cutoff])
            try setCounter(db, "pruned_through", cutoff)
        }
        return update
    }
}
