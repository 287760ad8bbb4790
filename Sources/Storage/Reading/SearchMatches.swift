import GRDB

/// The rows a search reads through its full-text index, as a subquery of their keys (`pk`).
///
/// Always a superset of the rows that contain the text: the plans check the text of what they keep.
struct SearchMatches {
    /// The FTS5 query; nil when only short columns can contain the text.
    var expression: String?
    /// Whether rows with a column of one or two characters belong too: the trigram index cannot
    /// see those columns (`SearchGrams`).
    var includesShortRows = false
    /// The keys themselves, once read: a plan that counted the matches sorts the ones it read
    /// instead of asking FTS5 a second time (which costs as much as the first).
    var knownKeys: [Int64]?

    /// The matches of a text of three or more characters (`SQLiteStore.matchExpression`).
    init(expression: String) {
        self.expression = expression
    }

    /// The matches of a text of one or two characters, from the trigrams that contain it (the
    /// empty marker among them meaning short columns contain it).
    init(trigrams: [String]) {
        let indexed = trigrams.filter { $0 != SearchGrams.shortTextMarker }
        expression = indexed.isEmpty ? nil : indexed.map(SQLiteStore.quoted).joined(separator: " OR ")
        includesShortRows = indexed.count < trigrams.count
    }

    /// The same matches without the rows whose title starts with `text` (three characters):
    /// FTS5's `^` anchors a trigram at the start of a column.
    func excludingTitles(startingWith text: String) -> SearchMatches {
        var matches = self
        if let expression {
            matches.expression = "(\(expression)) NOT {title_key}: ^\(SQLiteStore.quoted(text))"
        }
        return matches
    }

    /// `SELECT … AS pk` of the matching keys, in `table`.
    func keys(in table: CollectionTable) -> (sql: String, arguments: [DatabaseValue]) {
        if let knownKeys {
            let json = "[" + knownKeys.map(String.init).joined(separator: ",") + "]"
            return ("SELECT value AS pk FROM json_each(?)", [json.databaseValue])
        }
        let fts = table.searchTable ?? table.name
        var parts: [String] = []
        var arguments: [DatabaseValue] = []
        if let expression {
            parts.append("SELECT rowid AS pk FROM \(fts) WHERE \(fts) MATCH ?")
            arguments.append(expression.databaseValue)
        }
        if includesShortRows || parts.isEmpty {
            // The partial index `<table>_short_text` holds exactly these rows.
            parts.append("SELECT pk FROM \(table.name) WHERE \(SearchGrams.shortTextCondition)")
        }
        // UNION, not UNION ALL: a row with one short and one long column can be in both.
        return (parts.joined(separator: " UNION "), arguments)
    }
}
