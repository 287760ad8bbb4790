import GRDB

/// The change log's counters: one entry per committed insert, update and delete lives in
/// `changes`, written in the same transaction as the write; an entry's `seq` is the written
/// item's new version, so item versions, collection versions and the change feed come from one
/// counter. `store_counters` keeps each collection's version (`version.<name>`) and the newest
/// pruned sequence (`pruned_through`), which is what makes an old feed token detectably expired
/// rather than silently incomplete.
enum ChangeLog {
    /// The newest sequence ever handed out (pruning does not lower it).
    static func latestSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: latestSQL)) ?? 0
    }

    /// SQLite's newest sequence: its AUTOINCREMENT counter of `changes`.
    static let latestSQL = "SELECT seq FROM sqlite_sequence WHERE name = 'changes'"

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
}
