import GRDB

/// The rows waiting for the search index (`SearchBacklog`) that contain a search's text, read in
/// the search's own snapshot: a search plan adds them to what the index matches, so a search
/// finds every write acknowledged before it without waiting for a commit that indexes them.
struct BacklogMatches: Equatable {
    /// A waiting row that contains the text, with its place in the order by the title.
    struct Row: Equatable {
        let pk: Int64
        /// The title's order key (`CatalogTable.titleOrderColumn`; `title_key` when there is none).
        let title: String?
        let id: String
    }

    let rows: [Row]

    static let none = BacklogMatches(rows: [])

    /// The waiting rows of `table` whose folded title or subtitle contains `text` (folded).
    static func read(_ text: String, in table: CatalogTable, _ db: Database) throws -> BacklogMatches {
        guard let sql = table.backlogMatchSQL else { return .none }
        let rows = try db.all(sql, [table.collection.name.databaseValue, text.databaseValue, text.databaseValue]) { row -> Row? in
            guard let pk = row.integer(0), let id = row.text(2) else { return nil }
            return Row(pk: pk, title: row.text(1), id: id)
        }
        return BacklogMatches(rows: rows)
    }

    var isEmpty: Bool { rows.isEmpty }

    var keys: [Int64] { rows.map(\.pk) }

    /// Their keys as a source of `CatalogStore.Matches` (a query selecting `pk`); nil when none.
    var source: (sql: String, arguments: [DatabaseValue])? {
        guard !rows.isEmpty else { return nil }
        return ("SELECT value AS pk FROM json_each(?)", [("[" + keys.map(String.init).joined(separator: ",") + "]").databaseValue])
    }

    /// The keys of the rows that an ordered search's matches read so far cover: those no later in
    /// the order by the title than `last` (the last match read, nil: every match was read), so
    /// that a page never takes a waiting row past matches it has not read yet.
    ///
    /// Ascending, the order is `(title, id)`. Descending it is the title descending, then id
    /// ascending, and the plan reads every row of the last match's title (`rowsOfTitle`): a
    /// row of that title or a later one in the order is covered. Texts compare as SQLite's
    /// BINARY collation does, by their UTF-8 bytes, NULL first.
    func keys(through last: (title: String?, id: String)?, descending: Bool) -> [Int64] {
        guard let last else { return keys }
        return rows.filter { row in
            if descending { return !Self.precedes(row.title, last.title) }
            if Self.precedes(row.title, last.title) { return true }
            return !Self.precedes(last.title, row.title) && !Self.precedes(last.id, row.id)
        }.map(\.pk)
    }

    /// Whether `a` sorts before `b` in SQLite's BINARY collation (NULL before any text).
    static func precedes(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): false
        case (nil, _?): true
        case (_?, nil): false
        case (let a?, let b?): a.utf8.lexicographicallyPrecedes(b.utf8)
        }
    }
}
