import GRDB

/// The statements that place one row in a list (whether it is in it, and the row before it) and
/// that find the page before a position.
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
        backwardStatements(selecting: "t.\"id\"", before: position, tail: " LIMIT 1")
    }

    /// The statements that walk the order backwards from `position`, selecting each row's order
    /// keys (its position, as `membershipStatement` reads them), each taking its LIMIT as its
    /// last argument: run in turn, the rows before the position, nearest first.
    func positionsBefore(_ position: [DatabaseValue]) -> [(sql: String, arguments: [DatabaseValue])] {
        let columns = keys.map { "t.\(CatalogTable.quote($0.column.column))" }.joined(separator: ", ")
        return backwardStatements(selecting: columns, before: position, tail: " LIMIT ?")
    }

    private func backwardStatements(selecting columns: String, before position: [DatabaseValue], tail: String) -> [(
        sql: String, arguments: [DatabaseValue]
    )] {
        let head = "SELECT \(columns) FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "")
        let reversed = keys.map { "t.\(CatalogTable.quote($0.column.column))" + ($0.descending ? "" : " DESC") }.joined(separator: ", ")
        return keysetStatements(head: head, position: position, backwards: true, tail: reversed + tail)
    }

    /// A row of `membershipStatement` or `positionsBefore` as a keyset position.
    func position(ofKeys row: StatementRow) -> [SortValue] {
        keys.indices.map { column in keys[column].column.isText ? .text(row.text(column) ?? "") : .integer(row.integer(column) ?? 0) }
    }
}
