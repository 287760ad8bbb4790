import GRDB

/// The statements that count a list's rows, bounded: a count never reads more than its bound
/// and one more row, whatever the list's size.
extension CatalogPageQuery {
    /// How many rows the list holds, counting at most `rows` of them. `section`: only the rows
    /// of the section at this keyset prefix (its order keys, which its index leads with).
    func countStatement(upTo rows: Int, section: [DatabaseValue]? = nil) -> (sql: String, arguments: [DatabaseValue]) {
        var conditions = self.conditions
        var arguments = self.arguments
        for (key, value) in zip(keys, section ?? []) {
            conditions.append("t.\(CatalogTable.quote(key.column.column)) = ?")
            arguments.append(value)
        }
        // The LIMIT is written, not bound: a bound one let PostgreSQL plan for a tenth of the table.
        return ("SELECT count(*) FROM (" + bounded(selecting: "1", conditions, rows) + ") AS c", arguments)
    }

    /// Each section's rows (its id, then how many), counting at most `rows` rows of the list in all.
    func sectionCountsStatement(upTo rows: Int) -> (sql: String, arguments: [DatabaseValue]) {
        ("SELECT c.s_id, count(*) FROM (" + bounded(selecting: "t.\"s_id\" AS s_id", conditions, rows) + ") AS c GROUP BY c.s_id", arguments)
    }

    private func bounded(selecting columns: String, _ conditions: [String], _ rows: Int) -> String {
        "SELECT \(columns) FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "")
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " LIMIT \(rows)"
    }
}
