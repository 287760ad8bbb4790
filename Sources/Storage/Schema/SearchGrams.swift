import Foundation
import GRDB

/// The one- and two-character texts found in a table's search columns, each with the indexed
/// trigrams that contain it (`<table>_grams`).
///
/// FTS5's trigram index cannot answer a query shorter than three characters, so such a search
/// scanned the table: 1.4 s on a million products for a text that occurs nowhere. But a short
/// text inside a column of three or more characters lies inside one of that column's trigrams:
/// the rows that contain it are among the full-text matches of `"t1" OR "t2" OR …` over the
/// trigrams that contain it, and when no trigram does, no such row exists. Columns of one or two
/// characters have no trigrams; their substrings are kept with the empty trigram, which tells a
/// search to read those rows too (`shortTextCondition`, served by a partial index).
///
/// The writer adds to it in the transaction that indexes the rows (`SearchIndexChanges`); a bulk
/// load and the migration that created it derive it from FTS5's vocabulary. Nothing is removed:
/// a gram whose rows are gone costs a full-text query that finds nothing. A superset of what the
/// index holds is all a search needs; a missing gram would lose rows.
enum SearchGrams {
    /// Rows with a column of one or two characters, which the trigram index cannot see.
    ///
    /// Exactly the `WHERE` of the partial index `<table>_short_text`: SQLite uses a partial index
    /// only for a query that repeats its condition.
    static let shortTextCondition = "(length(title_key) BETWEEN 1 AND 2 OR length(subtitle_key) BETWEEN 1 AND 2)"

    /// The trigram recorded for the substrings of a column too short to have trigrams.
    static let shortTextMarker = ""

    /// The schema of `table`'s grams, and the partial index of its short rows.
    static func schema(on table: String) -> [String] {
        [
            "CREATE TABLE \(table)_grams (gram TEXT NOT NULL, trigram TEXT NOT NULL, PRIMARY KEY (gram, trigram)) WITHOUT ROWID",
            "CREATE INDEX \(table)_short_text ON \(table) (pk) WHERE \(shortTextCondition)",
        ]
    }

    /// The distinct trigrams of one folded column value, or the value itself when it is too
    /// short to have any; counted in Unicode scalars, as FTS5 and SQLite's `length` count
    /// characters.
    static func trigrams(of text: String, into trigrams: inout Set<String>, short: inout Set<String>) {
        let characters = Array(text.unicodeScalars)
        if characters.count < 3 {
            if !characters.isEmpty { short.insert(text) }
            return
        }
        for start in 0...(characters.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: characters[start..<(start + 3)])
            trigrams.insert(String(trigram))
        }
    }

    /// Where the one- and two-character substrings of a trigram start (from 1), and their sizes,
    /// as a table for SQL.
    private static let substrings =
        "("
        + [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2)].map { "SELECT \($0.0) AS start, \($0.1) AS size" }
        .joined(separator: " UNION ALL ") + ")"

    /// Records the grams of the given column values (`title_key`, `subtitle_key` of the rows just
    /// indexed). Swift finds the distinct trigrams; SQL cuts them into grams, as `rebuild` does.
    static func record(_ db: Database, table: String, texts: [String]) throws {
        var trigrams = Set<String>()
        var short = Set<String>()
        for text in texts { Self.trigrams(of: text, into: &trigrams, short: &short) }
        let encoder = JSONEncoder()
        if !trigrams.isEmpty {
            try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO \(table)_grams (gram, trigram)
                    SELECT substr(value, g.start, g.size), value FROM json_each(?), \(substrings) AS g
                    """
            ).execute(arguments: [String(decoding: try encoder.encode(Array(trigrams)), as: UTF8.self)])
        }
        if !short.isEmpty {
            try db.cachedStatement(sql: shortInsert(table: table, texts: "SELECT value AS text FROM json_each(?1)")).execute(arguments: [
                String(decoding: try encoder.encode(Array(short)), as: UTF8.self), shortTextMarker,
            ])
        }
    }

    /// Inserts the substrings of the short texts `texts` selects (a column `text`), with the marker as `?2`.
    private static func shortInsert(table: String, texts: String) -> String {
        """
        WITH texts AS (\(texts))
        INSERT OR IGNORE INTO \(table)_grams (gram, trigram)
        SELECT substr(text, g.start, g.size), ?2 FROM texts, \(substrings) AS g
        WHERE length(text) BETWEEN 1 AND 2 AND g.start + g.size - 1 <= length(text)
        """
    }

    /// Adds the grams of everything `table`'s search index holds: from FTS5's vocabulary (every
    /// trigram once, a second on a million products) and from the short columns.
    static func rebuild(_ db: Database, table: String) throws {
        let vocabulary = "temp.\(table)_search_vocabulary"
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabulary) USING fts5vocab(main, '\(table)_search', 'row')")
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(table)_grams (gram, trigram)
                SELECT substr(term, g.start, g.size), term FROM \(vocabulary), \(substrings) AS g
                """)
        try db.execute(sql: "DROP TABLE \(vocabulary)")
        let short = "SELECT title_key, subtitle_key FROM \(table) WHERE \(shortTextCondition)"
        try db.execute(
            sql: shortInsert(table: table, texts: "SELECT title_key AS text FROM (\(short)) UNION SELECT subtitle_key FROM (\(short))"),
            arguments: [nil as String?, shortTextMarker])
    }

    /// The trigrams that contain `text` (one or two characters), up to `limit`; the empty marker
    /// among them when a short column contains it.
    static func trigrams(_ db: Database, table: String, containing text: String, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT trigram FROM \(table)_grams WHERE gram = ? LIMIT ?"), arguments: [text, limit])
    }
}
