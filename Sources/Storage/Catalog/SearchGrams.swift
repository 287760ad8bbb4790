import Foundation
import GRDB

/// What lets a search of one or two characters use the trigram index instead of scanning.
///
/// FTS5's trigram tokenizer cannot match a text shorter than three characters. But a substring
/// of one or two characters of a column of three or more lies inside one of its trigrams, so
/// the rows containing "zq" are among the rows holding a trigram that contains "zq". The table
/// `<table>_grams` maps each one- and two-character gram to the indexed trigrams that contain
/// it; a search looks its text up there and asks FTS5 for any of those trigrams (a superset,
/// which the page then checks). No trigram, no row: a text that occurs nowhere answers at once.
///
/// Columns of one or two characters have no trigram; the partial index `short_text__<table>`
/// holds exactly the rows with one, so they are looked at too.
///
/// The map only grows: a write adds the grams of trigrams it is the first to use, a delete
/// removes nothing. A stale entry costs a query that finds fewer rows, never a missed row.
enum SearchGrams {
    /// Rows with a searched column of one or two characters. Exactly the `WHERE` of the partial
    /// index: SQLite uses a partial index only for a query that repeats its condition.
    static let shortTextCondition = "(length(title_key) BETWEEN 1 AND 2 OR length(subtitle_key) BETWEEN 1 AND 2)"

    static func table(of table: CatalogTable) -> String { Self.table(ofTable: table.name) }
    static func table(ofTable name: String) -> String { "\(name)_grams" }

    /// Creates the map and the index of short rows when the table has none yet, filled from the
    /// search index (a database from before this map, or a new table: empty then).
    static func ensure(_ table: CatalogTable, _ db: Database) throws {
        guard let search = table.searchTable else { return }
        let grams = CatalogTable.quote(Self.table(of: table))
        try db.execute(
            sql:
                "CREATE INDEX IF NOT EXISTS \(CatalogTable.quote("short_text__\(table.name)")) ON \(CatalogTable.quote(table.name)) (pk) WHERE \(shortTextCondition)"
        )
        guard try !db.tableExists(Self.table(of: table)) else { return }
        try db.execute(sql: "CREATE TABLE \(grams) (gram TEXT NOT NULL, trigram TEXT NOT NULL, PRIMARY KEY (gram, trigram)) WITHOUT ROWID")
        try db.execute(sql: "CREATE INDEX \(CatalogTable.quote("\(Self.table(of: table))_trigram")) ON \(grams) (trigram)")
        try refill(table, search: search, db)
    }

    /// Adds the grams of every trigram in the search index (after a rebuild of it).
    static func refill(_ table: CatalogTable, _ db: Database) throws {
        guard let search = table.searchTable else { return }
        try refill(table, search: search, db)
    }

    private static func refill(_ table: CatalogTable, search: String, _ db: Database) throws {
        let vocabulary = CatalogTable.quote("\(search)_vocabulary")
        try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(vocabulary) USING fts5vocab(main, \(CatalogTable.quote(search)), 'row')")
        defer { try? db.execute(sql: "DROP TABLE temp.\(vocabulary)") }
        try db.execute(
            sql: "INSERT OR IGNORE INTO \(CatalogTable.quote(Self.table(of: table))) (gram, trigram) "
                + "SELECT substr(v.term, s.start, s.size), v.term FROM temp.\(vocabulary) AS v, \(substrings) AS s WHERE length(v.term) = 3")
    }

    /// Where the one- and two-character substrings of a trigram start (from 1), and their sizes.
    private static let substrings =
        "(" + [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)].map { "SELECT \($0.0) AS start, \($0.1) AS size" }.joined(separator: " UNION ALL ") + ")"

    /// The statement that records the grams of a row's trigrams not yet in the map: one
    /// statement per write, which reads one index entry per trigram the map already knows.
    static func insertSQL(ofTable name: String) -> String {
        let grams = CatalogTable.quote(table(ofTable: name))
        return "INSERT OR IGNORE INTO \(grams) (gram, trigram) SELECT substr(j.value, s.start, s.size), j.value "
            + "FROM json_each(?) AS j, \(substrings) AS s WHERE NOT EXISTS (SELECT 1 FROM \(grams) AS g WHERE g.trigram = j.value)"
    }

    /// The substrings of `text` of each size, in order, counted in Unicode scalars.
    static func grams(of text: String, sizes: [Int]) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var grams: [String] = []
        for size in sizes where scalars.count >= size {
            for start in 0...(scalars.count - size) {
                var gram = String.UnicodeScalarView()
                gram.append(contentsOf: scalars[start..<(start + size)])
                grams.append(String(gram))
            }
        }
        return grams
    }

    /// `texts` as a JSON array of strings, written by hand: `JSONEncoder` cost every write a
    /// percent of the writer's time. Escapes what JSON requires (quote, backslash, controls).
    static func jsonArray(_ texts: [String]) -> String {
        var json = "["
        for (index, text) in texts.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    json += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }

    /// The indexed trigrams that contain `text` (one or two characters), at most `limit + 1`.
    static func trigrams(_ db: Database, table: CatalogTable, containing text: String, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT trigram FROM \(CatalogTable.quote(Self.table(of: table))) WHERE gram = ? LIMIT ?"),
            arguments: [text, limit + 1])
    }
}
