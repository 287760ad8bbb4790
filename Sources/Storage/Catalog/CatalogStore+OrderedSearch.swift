import GRDB

/// The search plan for an order by the title in an ordered table (`TitleOrder`): the search
/// index's rowid follows that order, so its matches come in order from the position on and a
/// page reads about its own matches, wherever in the order they are and however many there are.
extension CatalogStore {
    /// Plans the page from the matches that follow the position: true when planned, false when
    /// no row can match, nil (plan unchanged) when another plan should decide: a short text in
    /// too many trigrams (common: a walk finds it at once), or filters that keep so few matches
    /// that more than `keys` were read for one page.
    ///
    /// `waiting`: the rows that wait for the index and contain the text, taken as far as the
    /// matches read so far reach in the order (`BacklogMatches.keys(through:descending:)`).
    func orderedSearchPlan(_ text: String, waiting: BacklogMatches, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool? {
        let table = plan.table
        // The order must be the index's: by the title, then id (a sort by the title and then
        // another key orders ties otherwise, and its position has more values).
        guard plan.keys.count == 2, plan.titleOrderColumn != nil, let sql = table.titleOrderSQL else { return nil }
        let limits = options.search
        // The expression of the matches (a superset for a short text), and the rows with a text
        // of one or two characters, which hold no trigram: few, taken whole.
        var expression: String?
        var candidates: [Int64] = []
        let exact = text.unicodeScalars.count >= 3
        if exact {
            expression = Self.ftsString(text)
        } else {
            let trigrams = try SearchGrams.trigrams(db, table: table, containing: text, limit: limits.trigrams)
            if trigrams.count > limits.trigrams { return nil }
            expression = trigrams.isEmpty ? nil : trigrams.map(Self.ftsString).joined(separator: " OR ")
            candidates = try Int64.fetchAll(
                db.cachedStatement(sql: sql.shortRows),
                arguments: [limits.probe + 1])
            if candidates.count > limits.probe { return nil }
            if expression == nil && candidates.isEmpty && waiting.isEmpty { return false }
        }
        let descending = plan.keys[0].descending
        // The first rowid at or after the position: the position's row may be gone, and in a
        // descending order the rows of the position's title come in id order after it.
        var bound: Int64? = descending ? Int64.max : Int64.min
        if let after = plan.after, after.count == 2 {
            bound = try Int64.fetchOne(
                db.cachedStatement(sql: descending ? sql.boundDescending : sql.boundAfter),
                arguments: StatementArguments(values: descending ? [after[0]] : after))
        }
        var exhausted = expression == nil || bound == nil
        var lastMatch: Int64?
        // Matches in order, a page (and one) at first, then twice as many each time the
        // conditions and the position keep too few, up to `keys`.
        var batch = plan.limit + 1
        let read = descending ? sql.matchesDescending : sql.matchesAfter
        while true {
            if !exhausted, let expression, let from = bound {
                var found = 0
                var last: Int64 = from
                try db.each(read, [expression.databaseValue, from.databaseValue, batch.databaseValue]) { row in
                    candidates.append(row.integer(0) ?? 0)
                    lastMatch = candidates.last
                    last = row.integer(1) ?? last
                    found += 1
                    return true
                }
                exhausted = found < batch
                bound = descending ? (last == Int64.min ? nil : last - 1) : (last == Int64.max ? nil : last + 1)
                if bound == nil { exhausted = true }
            }
            var trial = plan
            trial.addSubstringFilter(text)
            // Descending, the title of the last match may have rows later in id order (read
            // earlier in the index, whose order ends with id ascending).
            var ties: [Int64] = []
            if descending, !exhausted, let last = candidates.last {
                ties = try Int64.fetchAll(
                    db.cachedStatement(sql: sql.rowsOfTitle),
                    arguments: [last])
            }
            let covered = try waitingKeys(waiting, everyMatchRead: exhausted, last: lastMatch, descending: descending, sql, db)
            trial.addKeys(candidates + ties + covered)
            // Ascending, with no filter, a phrase's matches from the position are the page's rows.
            if exhausted || (!descending && exact && plan.conditions.isEmpty && candidates.count > plan.limit) {
                plan = trial
                return true
            }
            var kept = 0
            for (statement, arguments) in trial.seekStatements(selecting: "t.pk") where kept <= plan.limit {
                try db.each(statement, arguments + [(plan.limit + 1 - kept).databaseValue]) { _ in
                    kept += 1
                    return true
                }
            }
            if kept > plan.limit {
                plan = trial
                return true
            }
            if candidates.count > limits.keys { return nil }
            batch *= 2
        }
    }

    /// The waiting matches that the index's matches read so far cover: all of them once every
    /// match is read, else those up to `last` (the last match read, by `pk`) in the order.
    private func waitingKeys(
        _ waiting: BacklogMatches, everyMatchRead: Bool, last: Int64?, descending: Bool, _ sql: TitleOrderSQL, _ db: Database
    ) throws -> [Int64] {
        guard !waiting.isEmpty else { return [] }
        if everyMatchRead { return waiting.keys }
        guard let last else { return [] }
        var key: (title: String?, id: String)?
        try db.each(sql.keyOfRow, [last.databaseValue]) { row in
            key = (row.text(0), row.text(1) ?? "")
            return false
        }
        guard let key else { return [] }
        return waiting.keys(through: key, descending: descending)
    }
}
