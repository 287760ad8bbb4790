import Domain
import GRDB

/// The change-log entries of one write transaction: their sequences handed out as the writes
/// are made, the entries written together once the writes are done (`write`).
///
/// A transaction that holds the store's only writer (SQLite's lock; on PostgreSQL the writers'
/// advisory lock, which a load takes first) hands out the sequences after the log's latest. A
/// PostgreSQL group commit writes with provisional sequences and moves them after the latest
/// once it holds the lock (`rebase`), so that only its change-log tail waits on it. One
/// statement writes a batch's entries (not a statement, on PostgreSQL a round trip, each), and
/// the batch keeps its own list of what it changed (no read of the log back). A write that fails
/// takes its entries and their sequences back (`discard(from:)`), so the sequences stay gapless.
final class PendingChanges {
    struct Entry {
        var seq: Int64
        let collection: String
        let itemID: EntityID
        let operation: ChangeOperation
        let author: String?
        /// The parent item of an item of a child collection (nil for a top-level one): a child
        /// list's feed reads the entries of its parent only.
        let parent: String?
        /// An entry that moves no version (`CatalogWriter.touch`, `recordLeaving`): the item's row
        /// version stays, and a PostgreSQL rebase leaves it alone.
        var touch = false
    }

    /// The latest sequence when the transaction began (or, after `rebase`, when it took the
    /// writers' lock).
    private(set) var start: Int64
    /// Whether entries are kept: a bulk load takes sequences only, and makes its entries from
    /// its rows at its end (`CatalogStore.bulkLoad`).
    let recording: Bool
    private(set) var entries: [Entry] = []
    /// The last sequence handed out.
    private(set) var last: Int64

    init(after start: Int64, recording: Bool = true) {
        self.start = start
        self.recording = recording
        last = start
    }

    /// A mark for `discard(from:)`: the last sequence handed out so far.
    var mark: Int64 { last }

    /// Hands out the next sequence: the written item's new version.
    func append(_ collection: String, _ id: EntityID, _ operation: ChangeOperation, author: String?, parent: String?, touch: Bool = false) -> Int64 {
        last += 1
        if recording {
            entries.append(
                Entry(seq: last, collection: collection, itemID: id, operation: operation, author: author, parent: parent, touch: touch))
        }
        return last
    }

    /// Takes back what was handed out after `mark` (a write that failed, or an insert that met
    /// an existing id).
    func discard(from mark: Int64) {
        guard mark < last else { return }
        last = mark
        while let entry = entries.last, entry.seq > mark { entries.removeLast() }
    }

    /// Moves every sequence handed out so that they follow `latest` instead of `start`, for a
    /// transaction that made its writes before it took the writers' lock (PostgreSQL: from
    /// provisional sequences). Returns how far they moved.
    func rebase(onto latest: Int64) -> Int64 {
        let delta = latest - start
        guard delta != 0 else { return 0 }
        start = latest
        last += delta
        for index in entries.indices { entries[index].seq += delta }
        return delta
    }

    /// The ids of each collection's items the entries name, for moving their rows' versions
    /// with `rebase`.
    var itemsByCollection: [String: [EntityID]] {
        var items: [String: [EntityID]] = [:]
        for entry in entries where !entry.touch { items[entry.collection, default: []].append(entry.itemID) }
        return items
    }

    /// Each collection's newest sequence among the entries.
    var versions: [String: Int64] {
        var versions: [String: Int64] = [:]
        for entry in entries { versions[entry.collection] = max(versions[entry.collection] ?? 0, entry.seq) }
        return versions
    }

    /// The items the entries changed, in commit order.
    var changed: [ChangedItem] { entries.map { ($0.seq, ItemAddress($0.collection, $0.itemID)) } }

    /// Writes the entries after `cutoff` (those the retention keeps), in statements of at most
    /// `rowsPerStatement` rows: SQLite binds at most 32,766 values in one, PostgreSQL 65,535.
    func write(_ db: any SQLConnection, now: Int64, after cutoff: Int64 = 0) throws {
        for statement in statements(now: now, after: cutoff) { try db.run(statement.sql, statement.arguments) }
    }

    /// The INSERTs `write` runs.
    func statements(now: Int64, after cutoff: Int64 = 0) -> [(sql: String, arguments: [DatabaseValue])] {
        let kept = entries.drop { $0.seq <= cutoff }
        var statements: [(sql: String, arguments: [DatabaseValue])] = []
        var index = kept.startIndex
        while index < kept.endIndex {
            let end = min(index + Self.rowsPerStatement, kept.endIndex)
            let rows = kept[index..<end]
            var arguments: [DatabaseValue] = []
            arguments.reserveCapacity(rows.count * 7)
            for entry in rows {
                arguments += [
                    entry.seq.databaseValue, entry.collection.databaseValue, entry.itemID.rawValue.databaseValue,
                    entry.operation.rawValue.databaseValue, now.databaseValue, entry.author.databaseValue, entry.parent.databaseValue,
                ]
            }
            statements.append((Self.insertSQL(rows: rows.count), arguments))
            index = end
        }
        return statements
    }

    static let rowsPerStatement = 1_000

    /// One INSERT of `rows` entries: one text per row count, which a connection prepares once.
    static func insertSQL(rows: Int) -> String {
        "INSERT INTO changes (seq, collection, item_id, op, committed_at, key_id, parent_id) VALUES "
            + repeatElement("(?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }
}
