import Domain
import GRDB

/// Each collection's version and the latest sequence, answered from memory, and the items
/// changed lately (`RecentChanges`): what both stores keep between commits.
///
/// Versions only grow (a restore continues past the newest version the database ever had), so
/// merging by `max` is right whichever of two reads lands last.
struct StoreState: Sendable {
    var versions: [String: Int64] = [:]
    var latest: Int64 = 0
    /// What the store's signal of commits said when these were read (SQLite: the file's commit
    /// counter; PostgreSQL: the listener's generation of notifications). nil: never current.
    var stamp: UInt64?
    /// The log's newest pruned sequence, as read (not kept current).
    var prunedThrough: Int64 = 0
    /// The items changed after the window's start, through `recent.through`.
    var recent = RecentChanges(at: 0)

    /// The counters as `source` holds them: every collection of `catalog` at 0 until written,
    /// the newest sequence read by `latestSQL` (one integer: each database keeps it its own way).
    static func load(_ source: any RowSource, catalog: Catalog, latestSQL: String) throws -> StoreState {
        try read(source, catalog: catalog, latestSQL: latestSQL, tail: nil).state
    }

    /// The counters, and with `tail` the change log's entries after `tail.after` (at most
    /// `tail.limit`; nil when the log was pruned past it or has more), read by one statement: one
    /// snapshot without a transaction, and on PostgreSQL one round trip where a transaction of
    /// three reads took five. Every instance reads them after every commit of any instance.
    static func read(
        _ source: any RowSource, catalog: Catalog, latestSQL: String, tail: (after: Int64, limit: Int)?
    ) throws -> (state: StoreState, changes: [ChangedItem]?) {
        var state = StoreState()
        for collection in catalog.collections { state.versions[collection.name] = 0 }
        var sql =
            "SELECT 0, name, value, NULL FROM store_counters WHERE name LIKE 'version.%' OR name = 'pruned_through'"
            + " UNION ALL SELECT 1, NULL, (\(latestSQL)), NULL"
        var arguments: [DatabaseValue] = []
        if let tail {
            // Nothing when the log was pruned past the tail's start: it cannot name every change.
            sql +=
                " UNION ALL SELECT * FROM (SELECT 2, collection, seq, item_id FROM changes WHERE seq > ?"
                + " AND ? >= (SELECT coalesce(max(value), 0) FROM store_counters WHERE name = 'pruned_through') ORDER BY seq LIMIT ?) AS tail"
            arguments = [tail.after.databaseValue, tail.after.databaseValue, (tail.limit + 1).databaseValue]
        }
        var entries: [ChangedItem] = []
        var complete = true
        try source.each(sql, arguments) { row in
            switch row.integer(0) {
            case 0:
                guard let name = row.text(1), let value = row.integer(2) else { break }
                if name == "pruned_through" {
                    state.prunedThrough = value
                } else {
                    state.versions[String(name.dropFirst("version.".count))] = value
                }
            case 1:
                state.latest = row.integer(2) ?? 0
            default:
                guard let seq = row.integer(2), let collection = row.text(1), let raw = row.text(3), let id = EntityID(parsing: raw) else {
                    complete = false
                    break
                }
                entries.append((seq, ItemAddress(collection, id)))
            }
            return true
        }
        guard let tail, state.prunedThrough <= tail.after, complete, entries.count <= tail.limit else { return (state, nil) }
        return (state, entries)
    }

    mutating func apply(versions: [String: Int64], latest: Int64) {
        for (name, version) in versions { self.versions[name] = max(self.versions[name] ?? 0, version) }
        self.latest = max(self.latest, latest)
    }
}

extension Locked where Value == StoreState {
    /// `read` of the state; read again first (`reload`, one snapshot of the counters and the log's
    /// entries after the window's end) when the store's signal says another commit came since:
    /// `stamp`, read before, differs from the one the state was read at.
    func current<T>(
        stamp: UInt64?, reload: (_ since: Int64) throws -> (StoreState, [ChangedItem]?), _ read: (StoreState) -> T
    ) throws(StoreError) -> T {
        if stamp != nil, let answer = withLock({ $0.stamp == stamp ? read($0) : nil }) { return answer }
        let since = withLock { $0.recent.through }
        return try StoreError.catching {
            let (loaded, changes) = try reload(since)
            return withLock { state in
                state.apply(versions: loaded.versions, latest: loaded.latest)
                state.recent.follow(changes, after: since, through: loaded.latest)
                state.stamp = stamp
                return read(state)
            }
        }
    }
}
