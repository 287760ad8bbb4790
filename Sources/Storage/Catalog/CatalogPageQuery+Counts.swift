import GRDB

/// The statements that count a list's rows, bounded: a count never reads more than its bound
/// and one more row, whatever the list's size; and the sample an estimate scales.
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

    /// A sample of the table: `starts.count` runs of `rows` rows each in primary-key order, from
    /// each start, read by the primary key whatever the list's conditions. Per run and section id
    /// ("" without sections): the rows read, the rows the list keeps, and the last key read
    /// (where the run goes on).
    func sampleStatement(starts: [Int64], rows: Int, bySection: Bool) -> (sql: String, arguments: [DatabaseValue]) {
        let kept = conditions.isEmpty ? "1" : "CASE WHEN " + conditions.joined(separator: " AND ") + " THEN 1 ELSE 0 END"
        let section = bySection ? "t.\"s_id\"" : "''"
        let runs = starts.indices.map { run in
            "SELECT * FROM (SELECT \(run) AS run, \(kept) AS m, \(section) AS s_id, t.pk AS pk FROM \(CatalogTable.quote(table.name)) AS t"
                + " WHERE t.pk >= ? ORDER BY t.pk LIMIT \(rows)) AS r\(run)"
        }
        return (
            "SELECT s.run, s.s_id, count(*), sum(s.m), max(s.pk) FROM (\(runs.joined(separator: " UNION ALL "))) AS s GROUP BY s.run, s.s_id",
            starts.flatMap { arguments + [$0.databaseValue] }
        )
    }
}
