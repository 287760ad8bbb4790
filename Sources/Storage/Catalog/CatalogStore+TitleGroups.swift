import GRDB

/// A search plan for an order by the title whose titles repeat: a list of a few hundred
/// product names over a million items holds each title in a run of thousands of rows, and the
/// matches of a word ("bottle", in 20 of 481 names) cluster in a few runs far apart. A walk of
/// the order's index reads every row of every run before them (46,000 entries for page 1 of
/// "bottle"); FTS5 reads every match (42,000) to sort them. Both cost 15–20 ms.
///
/// When no subtitle can contain the text (`SubtitleTrigrams`), a row matches exactly when its
/// title does, so a whole run matches or none of it: the titles are visited one per seek of
/// the index (a loose index scan, in SQLite itself), and only the runs of the titles that
/// contain the text are read, from the position on. That costs a few microseconds a title, so
/// it is taken only when titles do repeat: a walk of `walk` index entries comes first, fills
/// the page when matches are spread, and says how long runs are.
extension CatalogStore {
    /// The page's keys from a walk, or from the runs of matching titles; false (plan unchanged)
    /// when neither decided: titles that do not repeat, a subtitle that may match, a filtered
    /// list, or more runs than `groups` before the page is full.
    func titleGroupPlan(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool {
        guard let column = plan.titleOrderColumn, plan.conditions.isEmpty else { return false }
        let limits = options.search
        let key = "t.\(CatalogTable.quote(column))"
        // The walk: every index entry in order, its title compared with the previous one's.
        var found: [Int64] = []
        var read = 0
        var runs = 0
        var previous: [UInt8] = []
        let walk = SearchWalk(text: text, budget: limits.walk)
        for (sql, arguments) in plan.seekStatements(selecting: "t.pk, \(key), t.subtitle_key") where found.count <= plan.limit {
            try db.each(sql, arguments + [(limits.walk - read).databaseValue]) { row in
                read += 1
                let same = row.withText(1) { $0.map { previous.elementsEqual($0) } ?? false }
                if !same {
                    runs += 1
                    previous = row.withText(1) { $0.map(Array.init) } ?? []
                }
                if walk.matches(row, titleColumn: 1) { found.append(row.integer(0) ?? 0) }
                return found.count <= plan.limit
            }
            if read >= limits.walk { break }
        }
        if found.count > plan.limit || read < limits.walk {
            plan.addKeys(found)
            return true
        }
        guard read >= runs * limits.groupRows, try !SubtitleTrigrams.mayContain(text, table: plan.table, db) else { return false }
        // The runs: a batch of matching titles at a time, from the position's title on, one
        // more each batch (the first run may hold the page).
        found = []
        var from = plan.after?.first.flatMap(String.fromDatabaseValue)
        var inclusive = true
        var visited = 0
        var batch = 1
        let descending = plan.keys[0].descending
        while found.count <= plan.limit {
            let remaining = limits.groups - visited
            guard remaining > 0 else { return false }
            var titles: [String] = []
            var last: (title: String?, step: Int) = (nil, 0)
            try db.each(
                Self.titleRunsSQL(plan.table, column: column, descending: descending, from: from == nil ? nil : inclusive),
                (from.map { [$0.databaseValue] } ?? []) + [remaining.databaseValue, text.databaseValue, batch.databaseValue]
            ) { row in
                let title = row.text(0)
                last = (title, Int(row.integer(1) ?? 0))
                if let title, walk.matches(title: title) { titles.append(title) }
                return true
            }
            for title in titles where found.count <= plan.limit {
                var run = plan
                run.add("\(key) = ?", [title.databaseValue])
                for (sql, arguments) in run.seekStatements(selecting: "t.pk") where found.count <= plan.limit {
                    try db.each(sql, arguments + [(plan.limit + 1 - found.count).databaseValue]) { row in
                        found.append(row.integer(0) ?? 0)
                        return true
                    }
                }
            }
            visited += last.step
            // The end of the index, or the batch's last title: the next batch starts after it.
            guard let next = last.title else { break }
            from = next
            inclusive = false
            batch += 1
        }
        plan.addKeys(found)
        return true
    }

    /// A loose scan of the order's index: its distinct titles from `?1` on (all of them when
    /// `from` is nil; `from` true includes `?1`), one seek each, numbered from 1, at most `?2`.
    /// It answers the titles containing `?3`, then the scan's last title (numbered `?2`), or
    /// NULL at the end of the index; at most `?4` rows, so it stops at the `?4`th match.
    static func titleRunsSQL(_ table: CatalogTable, column: String, descending: Bool, from: Bool?) -> String {
        let key = "t.\(CatalogTable.quote(column))"
        let rows = "\(CatalogTable.quote(table.name)) AS t"
        let after = descending ? "<" : ">"
        let order = descending ? " DESC" : ""
        let start = from.map { "WHERE \(key) \(after)\($0 ? "=" : "") ?1 " } ?? ""
        let parameters = from == nil ? ("?1", "?2", "?3") : ("?2", "?3", "?4")
        return """
            WITH RECURSIVE runs(title, step) AS (
                SELECT (SELECT \(key) FROM \(rows) \(start)ORDER BY \(key)\(order) LIMIT 1), 1
                UNION ALL
                SELECT (SELECT \(key) FROM \(rows) WHERE \(key) \(after) runs.title ORDER BY \(key)\(order) LIMIT 1), step + 1
                FROM runs WHERE runs.title IS NOT NULL AND step < \(parameters.0)
            )
            SELECT title, step FROM runs WHERE title IS NULL OR step = \(parameters.0) OR instr(title, \(parameters.1)) > 0 LIMIT \(parameters.2)
            """
    }
}
