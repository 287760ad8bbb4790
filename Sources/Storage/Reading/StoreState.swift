import Domain

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
        var state = StoreState()
        for collection in catalog.collections { state.versions[collection.name] = 0 }
        try source.each("SELECT name, value FROM store_counters WHERE name LIKE 'version.%' OR name = 'pruned_through'", []) { row in
            guard let name = row.text(0), let value = row.integer(1) else { return true }
            if name == "pruned_through" {
                state.prunedThrough = value
            } else {
                state.versions[String(name.dropFirst("version.".count))] = value
            }
            return true
        }
        try source.each(latestSQL, []) { row in
            state.latest = row.integer(0) ?? 0
            return false
        }
        return state
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
        do {
            let (loaded, changes) = try reload(since)
            return withLock { state in
                state.apply(versions: loaded.versions, latest: loaded.latest)
                state.recent.follow(changes, after: since, through: loaded.latest)
                state.stamp = stamp
                return read(state)
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}
