import GRDB

/// The statements that place one row in a list: whether it is in it, and the row before it.
extension CatalogPageQuery {
    /// The order keys (sections, sorts, id) of the row with `id` when every condition of the
    /// list holds for it; no row when it is not in the list. Read by id, never `NOT INDEXED`.
    func membershipStatement(id: String) -> (sql: String, arguments: [DatabaseValue]) {
        let columns = keys.map { "t.\(CatalogTable.quote($0.column.column))" }.joined(separator: ", ")
        let conditions = ["t.\"id\" = ?"] + self.conditions
        return (
            "SELECT \(columns) FROM \(CatalogTable.quote(table.name)) AS t WHERE " + conditions.joined(separator: " AND "),
            [id.databaseValue] + arguments
        )
    }

    /// The statements that walk the order backwards from `position` (a row's order keys, as
    /// `membershipStatement` reads them), selecting ids, one row each: run in turn, the first
    /// row any of them returns is the row just before the position. The mirror of `seekStatements`.
    func precedingStatements(before position: [DatabaseValue]) -> [(sql: String, arguments: [DatabaseValue])] {
        let head = "SELECT t.\"id\" FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "")
        let reversed = keys.map { "t.\(CatalogTable.quote($0.column.column))" + ($0.descending ? "" : " DESC") }.joined(separator: ", ")
        return keysetStatements(head: head, position: position, backwards: true, tail: reversed + " LIMIT 1")
    }
}
