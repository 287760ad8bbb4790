import GRDB

/// The trigrams that occur in a collection's subtitle keys: what lets a search in an order by
/// the title know, before it reads a row, that only titles can match its text.
///
/// Then the matches are whole runs of one title, and a search can skip a title that does not
/// contain the text at the cost of one seek rather than reading each of its rows
/// (`CatalogStore+TitleGroups.swift`). Lists whose titles repeat (a catalog of a few hundred
/// product names over a million items) have such runs of thousands.
///
/// The table `<table>_subtitle_trigrams` only grows, like `SearchGrams`' map: a write adds its
/// subtitle's trigrams, a delete removes nothing. A stale trigram makes a search take the plan
/// that also reads subtitles, never miss a row. It is filled from the search index when it is
/// made (a database from before it) and again after the index is rebuilt.
enum SubtitleTrigrams {
    static func table(of table: CatalogTable) -> String { Self.table(ofTable: table.name) }
    static func table(ofTable name: String) -> String { "\(name)_subtitle_trigrams" }

    /// Creates the set when the table has none yet, filled from the search index.
    static func ensure(_ table: CatalogTable, _ db: Database) throws {
        guard table.searchTable != nil, try !db.tableExists(Self.table(of: table)) else { return }
        try db.execute(sql: "CREATE TABLE \(CatalogTable.quote(Self.table(of: table))) (trigram TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID")
        try refill(table, db)
    }

    /// Adds every trigram the search index holds in a subtitle key (after a rebuild of it).
    static func refill(_ table: CatalogTable, _ db: Database) throws {
        guard let search = table.searchTable else { return }
        let vocabulary = CatalogTable.quote("\(search)_columns")
        try db.execute(sql: "CREATE VIRTUAL TABLE temp.\(vocabulary) USING fts5vocab(main, \(CatalogTable.quote(search)), 'col')")
        defer { try? db.execute(sql: "DROP TABLE temp.\(vocabulary)") }
        try db.execute(
            sql: "INSERT OR IGNORE INTO \(CatalogTable.quote(Self.table(of: table))) (trigram) "
                + "SELECT term FROM temp.\(vocabulary) WHERE col = 'subtitle_key' AND length(term) = 3")
    }

    /// The statement that records a JSON array of trigrams (`SearchGrams.trigramsJSON`).
    static func insertSQL(ofTable name: String) -> String {
        "INSERT OR IGNORE INTO \(CatalogTable.quote(table(ofTable: name))) (trigram) SELECT value FROM json_each(?)"
    }

    /// Whether a subtitle key can contain `text` (folded, not blank): false only when none can.
    /// Three characters or more: every trigram of the text occurs in some subtitle. Fewer:
    /// some subtitle trigram contains the text, or some subtitle is that short.
    static func mayContain(_ text: String, table: CatalogTable, _ db: Database) throws -> Bool {
        let set = CatalogTable.quote(Self.table(of: table))
        if let json = SearchGrams.trigramsJSON([text]) {
            return try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) = json_array_length(?1) FROM \(set) WHERE trigram IN (SELECT value FROM json_each(?1))"),
                arguments: [json]) ?? true
        }
        let grams = CatalogTable.quote(SearchGrams.table(of: table))
        let rows = CatalogTable.quote(table.name)
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM \(grams) AS g JOIN \(set) AS s ON s.trigram = g.trigram WHERE g.gram = ?)
                        OR EXISTS (SELECT 1 FROM \(rows) WHERE \(SearchGrams.shortTextCondition) AND length(subtitle_key) BETWEEN 1 AND 2)
                    """), arguments: [text]) ?? true
    }
}
