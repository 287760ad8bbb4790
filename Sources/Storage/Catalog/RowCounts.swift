import GRDB

/// Each collection's number of rows, counted once and then followed through the change log:
/// what an unfiltered list's total is, exact at any size, and what an estimate scales.
///
/// A count is kept with the sequence it was read at; a later read adds the log's inserts and
/// takes its deletes after that sequence (one range of the `(collection, seq)` index), and
/// counts again only when the log was pruned past it (a bulk load, a restore). Every row a
/// write adds or removes has its entry: the writer logs each insert it made and each delete,
/// cascades included.
final class RowCounts: Sendable {
    private struct Known {
        var rows: Int64
        var through: Int64
    }

    private let known = Locked<[String: Known]>([:])

    /// The rows of `collection` when they were counted at `sequence` (the newest commit's): nil
    /// when they were not, and must be read.
    func kept(_ collection: String, at sequence: Int64) -> Int64? {
        known.withLock { known in known[collection].flatMap { $0.through == sequence ? $0.rows : nil } }
    }

    /// The rows of `table` as of `db`'s snapshot, which reads the newest sequence with `latestSQL`.
    func rows(of table: CatalogTable, _ db: any RowSource, latestSQL: String) throws -> Int64 {
        let name = table.collection.name
        let now =
            try db.first(
                "SELECT (\(latestSQL)), (SELECT value FROM store_counters WHERE name = 'pruned_through')", []
            ) { row in (latest: row.integer(0) ?? 0, pruned: row.integer(1) ?? 0) } ?? (latest: 0, pruned: 0)
        let kept = known.withLock { $0[name] }
        var rows: Int64
        if let kept, kept.through == now.latest {
            return kept.rows
        } else if let kept, kept.through >= now.pruned, kept.through < now.latest {
            let delta = try db.integer(
                "SELECT coalesce(sum(CASE op WHEN 'insert' THEN 1 WHEN 'delete' THEN -1 ELSE 0 END), 0) FROM changes"
                    + " WHERE collection = ? AND seq > ? AND seq <= ?",
                [name.databaseValue, kept.through.databaseValue, now.latest.databaseValue])
            rows = kept.rows + (delta ?? 0)
        } else {
            rows = try db.integer("SELECT count(*) FROM \(CatalogTable.quote(table.name))", []) ?? 0
        }
        let counted = Known(rows: max(rows, 0), through: now.latest)
        // Kept only when newer than what another read kept meanwhile.
        known.withLock { known in
            if (known[name]?.through ?? -1) < counted.through { known[name] = counted }
        }
        return counted.rows
    }
}
