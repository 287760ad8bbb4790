import Foundation
import GRDB

/// The search-index work of one write transaction, applied once before it commits.
///
/// SQLite 3.40's FTS5 flushes its pending terms into a new segment at every savepoint, and the
/// writer opens one per write (plus a statement savepoint for every statement that writes to
/// FTS5 inside a transaction). Indexing row by row, from triggers, made each grouped write
/// cost a segment and its merging: half the writer's throughput on a million products. So the
/// writes only note which rows they touch, and the whole transaction's changes go to FTS5 in
/// two statements per table: one segment per commit.
///
/// For each touched row the note is what the index held before the transaction (nothing for a
/// new row, or the folded title and subtitle it was indexed with, which FTS5's `delete` needs
/// exactly). At the end those old entries are deleted and every touched row that still exists
/// is indexed as it is now, which is right whatever sequence of writes touched it. The grams of
/// what is indexed now are added for short queries (`SearchGrams`).
struct SearchIndexChanges {
    private struct TableRow: Hashable {
        let table: String
        let pk: Int64
    }

    private enum Before {
        case notIndexed
        case indexed(title: String, subtitle: String?)
    }

    private var touched: [TableRow: Before] = [:]

    var isEmpty: Bool { touched.isEmpty }

    /// A row was inserted: index it at the end.
    mutating func inserted(into table: String, pk: Int64) {
        let key = TableRow(table: table, pk: pk)
        if touched[key] == nil { touched[key] = .notIndexed }
    }

    /// A row indexed with `title`/`subtitle` is about to change or go.
    mutating func changing(in table: String, pk: Int64, title: String, subtitle: String?) {
        let key = TableRow(table: table, pk: pk)
        if touched[key] == nil { touched[key] = .indexed(title: title, subtitle: subtitle) }
    }

    /// Adds the notes of a later write: the earliest note of a row is what the index holds.
    mutating func merge(_ later: SearchIndexChanges) {
        for (key, before) in later.touched where touched[key] == nil {
            touched[key] = before
        }
    }

    /// Brings the search indexes up to date with the touched rows.
    func apply(_ db: Database) throws {
        let byTable = Dictionary(grouping: touched, by: \.key.table)
        for (table, rows) in byTable {
            var deletes: [[String?]] = []
            var keys: [Int64] = []
            for (row, before) in rows {
                keys.append(row.pk)
                if case .indexed(let title, let subtitle) = before {
                    deletes.append([String(row.pk), title, subtitle])
                }
            }
            let encoder = JSONEncoder()
            if !deletes.isEmpty {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO \(table)_search (\(table)_search, rowid, title_key, subtitle_key)
                        SELECT 'delete', CAST(value ->> 0 AS INTEGER), value ->> 1, value ->> 2 FROM json_each(?)
                        """
                ).execute(arguments: [String(decoding: try encoder.encode(deletes), as: UTF8.self)])
            }
            let touchedKeys = String(decoding: try encoder.encode(keys), as: UTF8.self)
            try db.cachedStatement(
                sql: """
                    INSERT INTO \(table)_search (rowid, title_key, subtitle_key)
                    SELECT pk, title_key, subtitle_key FROM \(table) WHERE pk IN (SELECT value FROM json_each(?))
                    """
            ).execute(arguments: [touchedKeys])
            let texts = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT title_key FROM \(table) WHERE pk IN (SELECT value FROM json_each(?1))
                        UNION SELECT subtitle_key FROM \(table) WHERE pk IN (SELECT value FROM json_each(?1)) AND subtitle_key IS NOT NULL
                        """), arguments: [touchedKeys])
            try SearchGrams.record(db, table: table, texts: texts)
        }
    }
}
