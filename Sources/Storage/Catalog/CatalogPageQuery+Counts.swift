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

    /// This list's rows of the section at this keyset prefix only.
    func restricted(toSection section: [DatabaseValue]) -> CatalogPageQuery {
        var plan = self
        for (key, value) in zip(keys, section) { plan.add("t.\(CatalogTable.quote(key.column.column)) = ?", [value]) }
        return plan
    }

    private func bounded(selecting columns: String, _ conditions: [String], _ rows: Int) -> String {
        "SELECT \(columns) FROM \(CatalogTable.quote(table.name)) AS t" + (readsByKey ? " NOT INDEXED" : "")
            + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")) + " LIMIT \(rows)"
    }

    /// A sample of the table: for each start, the first `matches` rows of the list among the
    /// next `span` keys of the primary key (read in its order, whatever the list's conditions),
    /// with each row's run, key and section id ("" without sections). Where a run found them
    /// says how far it read: a rare list reads far, a common one a few rows.
    func sampleStatement(starts: [Int64], span: Int64, matches: Int, bySection: Bool) -> (sql: String, arguments: [DatabaseValue]) {
        let section = bySection ? "t.\"s_id\"" : "''"
        let kept = (["t.pk >= ?", "t.pk < ?"] + conditions).joined(separator: " AND ")
        let runs = starts.indices.map { run in
            "SELECT * FROM (SELECT \(run) AS run, t.pk AS pk, \(section) AS s_id FROM \(CatalogTable.quote(table.name)) AS t"
                + " WHERE \(kept) ORDER BY t.pk LIMIT \(matches)) AS r\(run)"
        }
        return (runs.joined(separator: " UNION ALL "), starts.flatMap { [$0.databaseValue, ($0 + span).databaseValue] + arguments })
    }
}
