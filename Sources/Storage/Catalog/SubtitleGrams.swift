import GRDB

/// The three- and four-character grams that occur in a collection's subtitle keys: what lets
/// a search in an order by the title know, before it reads a row, that only titles can match
/// its text.
///
/// Then the matches are whole runs of one title, and a search reads only the runs of the
/// titles that contain the text (`CatalogStore+TitleGroups.swift`). Lists whose titles repeat
/// (a catalog of a few hundred product names over a million items) have runs of thousands.
/// Four-character grams as well as three: "stand" has every trigram in some subtitle of the
/// demo ("resistant", "hand-finished") but not the gram "tand".
///
/// The table `<table>_subtitle_grams` only grows, like `SearchGrams`' map: a write adds its
/// subtitle's grams, a delete removes nothing. A stale gram makes a search take the plan that
/// also reads subtitles, never miss a row. It is filled from the distinct subtitles when it is
/// made (a database from before it) and again after the search index is rebuilt.
enum SubtitleGrams {
    static func table(of table: CatalogTable) -> String { "\(table.name)_subtitle_grams" }

    /// Creates the set when the table has none yet, filled from the rows.
    static func ensure(_ table: CatalogTable, _ db: Database) throws {
        guard table.searchTable != nil, try !db.tableExists(Self.table(of: table)) else { return }
        try db.execute(sql: "CREATE TABLE \(CatalogTable.quote(Self.table(of: table))) (gram TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID")
        try refill(table, db)
    }

    /// Adds the grams of every distinct subtitle key, a thousand subtitles a statement.
    static func refill(_ table: CatalogTable, _ db: Database) throws {
        guard table.searchTable != nil else { return }
        let insert = try db.makeStatement(sql: insertSQL(ofTable: table.name))
        let subtitles = try String.fetchCursor(
            db, sql: "SELECT DISTINCT subtitle_key FROM \(CatalogTable.quote(table.name)) WHERE subtitle_key IS NOT NULL")
        func write(_ batch: GramBatch) throws {
            guard !batch.subtitleGrams.isEmpty else { return }
            try insert.execute(arguments: [SearchGrams.jsonArray(batch.subtitleGrams)])
        }
        var batch = GramBatch(table: table, known: .init())
        var count = 0
        while let subtitle = try subtitles.next() {
            batch.add(title: nil, subtitle: subtitle)
            count += 1
            if count == 1_000 {
                try write(batch)
                (batch, count) = (GramBatch(table: table, known: .init()), 0)
            }
        }
        try write(batch)
    }

    /// The statement that records a JSON array of grams (`GramBatch.subtitleGrams`).
    static func insertSQL(ofTable name: String) -> String {
        "INSERT OR IGNORE INTO \(CatalogTable.quote("\(name)_subtitle_grams")) (gram) SELECT value FROM json_each(?)"
    }

    /// Whether a subtitle key can contain `text` (folded, not blank): false only when none can.
    /// Four characters or more: every four-character gram of the text occurs in some subtitle;
    /// three: the text is a gram of one. Fewer: some subtitle trigram contains the text
    /// (through `SearchGrams`' map), or some subtitle is that short.
    static func mayContain(_ text: String, table: CatalogTable, _ db: Database) throws -> Bool {
        let set = CatalogTable.quote(Self.table(of: table))
        let count = text.unicodeScalars.count
        if count >= 3 {
            let grams = Array(Set(SearchGrams.grams(of: text, sizes: [min(count, 4)])))
            return try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) = json_array_length(?1) FROM \(set) WHERE gram IN (SELECT value FROM json_each(?1))"),
                arguments: [SearchGrams.jsonArray(grams)]) ?? true
        }
        let map = CatalogTable.quote(SearchGrams.table(of: table))
        let rows = CatalogTable.quote(table.name)
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM \(map) AS g JOIN \(set) AS s ON s.gram = g.trigram WHERE g.gram = ?)
                        OR EXISTS (SELECT 1 FROM \(rows) WHERE \(SearchGrams.shortTextCondition) AND length(subtitle_key) BETWEEN 1 AND 2)
                    """), arguments: [text]) ?? true
    }
}
