/// The statements of an ordered table (`TitleOrder`, `CatalogStore+OrderedSearch.swift`), made
/// once when the store opens, as `CatalogTable`'s others are: searches and placed writes only
/// bind them.
struct TitleOrderSQL: Sendable {
    /// The title order column and id of a row, by `pk`.
    let keyOfRow: String
    /// Up to `LIMIT` placed rows before / after `(title, id)` in the order, nearest first,
    /// leaving out a `pk`: `pk, ord`.
    let rowsBefore: String
    let rowsAfter: String
    /// Sets a row's `ord`, by `pk`.
    let setOrd: String
    /// A row's `ord` and indexed texts, by `pk`.
    let indexedRow: String
    /// The first placed row's `ord` after a position `(title, id)`; descending, the last at or
    /// before a title.
    let boundAfter: String
    let boundDescending: String
    /// The matches of `MATCH ?` from a rowid on, in the order (`pk, rowid`), `LIMIT ?`.
    let matchesAfter: String
    let matchesDescending: String
    /// The rows of the title of a row, by `pk`.
    let rowsOfTitle: String
    /// The rows with a text of one or two characters, `LIMIT ?`.
    let shortRows: String

    init(table: String, column: String, search: String) {
        let table = CatalogTable.quote(table)
        let column = CatalogTable.quote(column)
        let search = CatalogTable.quote(search)
        keyOfRow = "SELECT \(column), id FROM \(table) WHERE pk = ?"
        rowsBefore =
            "SELECT pk, ord FROM \(table) WHERE (\(column), id) < (?, ?) AND ord IS NOT NULL AND pk != ? ORDER BY \(column) DESC, id DESC LIMIT ?"
        rowsAfter = "SELECT pk, ord FROM \(table) WHERE (\(column), id) > (?, ?) AND ord IS NOT NULL AND pk != ? ORDER BY \(column), id LIMIT ?"
        setOrd = "UPDATE \(table) SET ord = ? WHERE pk = ?"
        indexedRow = "SELECT ord, title_key, subtitle_key FROM \(table) WHERE pk = ?"
        boundAfter = "SELECT ord FROM \(table) WHERE (\(column), id) > (?, ?) AND ord IS NOT NULL ORDER BY \(column), id LIMIT 1"
        boundDescending = "SELECT ord FROM \(table) WHERE \(column) <= ? AND ord IS NOT NULL ORDER BY \(column) DESC, id DESC LIMIT 1"
        let join = "SELECT m.pk, \(search).rowid FROM \(search) JOIN \(table) AS m ON m.ord = \(search).rowid WHERE \(search) MATCH ?"
        matchesAfter = join + " AND \(search).rowid >= ? ORDER BY \(search).rowid LIMIT ?"
        matchesDescending = join + " AND \(search).rowid <= ? ORDER BY \(search).rowid DESC LIMIT ?"
        rowsOfTitle = "SELECT pk FROM \(table) WHERE \(column) = (SELECT \(column) FROM \(table) WHERE pk = ?)"
        shortRows = "SELECT pk FROM \(table) WHERE \(SearchGrams.shortTextCondition) LIMIT ?"
    }
}
