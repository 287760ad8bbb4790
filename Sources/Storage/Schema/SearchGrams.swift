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

    /// The `(gram, trigram)` pairs of one folded column value, counted in Unicode scalars as FTS5
    /// and SQLite's `length` count characters.
    static func pairs(of text: String, into pairs: inout Set<[String]>) {
        let characters = Array(text.unicodeScalars)
        func string(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: characters[range])
            return String(view)
        }
        if characters.count < 3 {
            for start in characters.indices {
                for end in (start + 1)...min(start + 2, characters.count) {
                    pairs.insert([string(start..<end), shortTextMarker])
                }
            }
            return
        }
        var seen = Set<String>()
        for start in 0...(characters.count - 3) {
            let trigram = string(start..<(start + 3))
            guard seen.insert(trigram).inserted else { continue }
            for (offset, size) in substrings {
                pairs.insert([string((start + offset)..<(start + offset + size)), trigram])
            }
        }
    }

    /// Where the one- and two-character substrings of a trigram start, and their sizes.
    private static let substrings = [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2)]

    /// Records the grams of the given column values (`title_key`, `subtitle_key` of the rows just indexed).
    static func record(_ db: Database, table: String, texts: [String]) throws {
        var pairs = Set<[String]>()
        for text in texts { Self.pairs(of: text, into: &pairs) }
        if pairs.isEmpty { return }
        let json = String(decoding: try JSONEncoder().encode(Array(pairs)), as: UTF8.self)
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO \(table)_grams (gram, trigram) SELECT value ->> 0, value ->> 1 FROM json_each(?)"
        ).execute(arguments: [json])
    }

    /// Adds the grams of everything `table`'s search index holds: from FTS5's vocabulary (every
    /// trigram once, a second on a million products) and from the short columns.
    static func rebuild(_ db: Database, table: String) throws {
        let vocabulary = "temp.\(table)_search_vocabulary"
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabulary) USING fts5vocab(main, '\(table)_search', 'row')")
        let positions = "(" + Self.substrings.map { "SELECT \($0.0 + 1) AS start, \($0.1) AS size" }.joined(separator: " UNION ALL ") + ")"
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO \(table)_grams (gram, trigram)
                SELECT substr(term, g.start, g.size), term FROM \(vocabulary), \(positions) AS g
                """)
        try db.execute(sql: "DROP TABLE \(vocabulary)")
        try db.execute(
            sql: """
                WITH short AS (SELECT title_key, subtitle_key FROM \(table) WHERE \(shortTextCondition)),
                texts AS (SELECT title_key AS text FROM short UNION SELECT subtitle_key FROM short)
                INSERT OR IGNORE INTO \(table)_grams (gram, trigram)
                SELECT substr(text, g.start, g.size), ? FROM texts, \(positions) AS g
                WHERE length(text) BETWEEN 1 AND 2 AND g.start + g.size - 1 <= length(text)
                """, arguments: [shortTextMarker])
    }

    /// The trigrams that contain `text` (one or two characters), up to `limit`; the empty marker
    /// among them when a short column contains it.
    static func trigrams(_ db: Database, table: String, containing text: String, limit: Int) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT trigram FROM \(table)_grams WHERE gram = ? LIMIT ?"), arguments: [text, limit])
    }
}
