import GRDB

/// Search plans for an order by the title (`CatalogPageQuery.titleOrderColumn`), whose index
/// holds both searched texts, so a walk of it reads no row.
///
/// - `scanTitleOrder`: the index is scanned from the position checking the text in each entry,
///   up to `SearchLimits.textScan` entries. Matches spread over the order ("keyboard", a word
///   inside many titles) fill a page within a few thousand entries, at a fraction of a
///   microsecond each.
/// - `titlePrefixPlan`: matches that cluster late in the order are mostly titles that start
///   with the text ("walnut …" in an order by name), and those are one range of the index. The
///   range is scanned from the position and merged with every other match, read by key.
extension CatalogStore {
    /// Scans the order's index for the page's matches; false (plan unchanged) when the scan gave up.
    func scanTitleOrder(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool {
        guard let found = try scanTexts(text, in: plan, budget: options.search.textScan, db) else { return false }
        plan.addKeys(found)
        return true
    }

    /// The titles that start with the text's first three characters, scanned as one range
    /// of the index, and the other matches of `matches` (a phrase): when those are few enough
    /// to read by key, the page is the two merged. False (plan unchanged) otherwise.
    /// `text` has three characters or more.
    ///
    /// The range of the first trigram rather than of the whole text: FTS5 tells a title that
    /// starts with one trigram (`^"wal"`) from one doclist, and the scan checks the whole text.
    func titlePrefixPlan(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3, let search = plan.table.searchTable.map(CatalogTable.quote), let column = plan.titleOrderColumn else {
            return false
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<3])
        let prefix = String(view)
        guard let range = plan.restricted(toTitlesStartingWith: prefix) else { return false }
        // A text that starts no title has nothing to merge: one seek says so, before FTS5 reads
        // the doclists the other matches need.
        var bounds = "t.\(CatalogTable.quote(column)) >= ?"
        var arguments: [DatabaseValue] = [prefix.databaseValue]
        if let upper = CatalogPageQuery.prefixUpperBound(prefix) {
            bounds += " AND t.\(CatalogTable.quote(column)) < ?"
            arguments.append(upper.databaseValue)
        }
        let starts = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(CatalogTable.quote(plan.table.name)) AS t WHERE \(bounds))"),
            arguments: StatementArguments(arguments))
        guard starts == true else { return false }
        let others = try Int64.fetchAll(
            db.cachedStatement(sql: "SELECT rowid FROM \(search) WHERE \(search) MATCH ? LIMIT ?"),
            arguments: [
                "(\(Self.ftsString(text))) NOT title_key : ^\(Self.ftsString(prefix))", options.search.keys + 1,
            ])
        guard others.count <= options.search.keys, let found = try scanTexts(text, in: range, budget: options.search.textScan, db) else {
            return false
        }
        plan.addKeys(others + found)
        return true
    }

    /// The keys of the first `limit + 1` rows after the position (fewer at the end of the order)
    /// whose title or subtitle key contains `text`, read from the order's index alone; nil when
    /// `budget` entries were read first, or when the order's index does not hold the texts.
    func scanTexts(_ text: String, in plan: CatalogPageQuery, budget: Int, _ db: Database) throws -> [Int64]? {
        guard let columns = plan.textScanColumns else { return nil }
        let hasSubtitle = plan.table.collection.search.count > 1
        let wanted = plan.limit + 1
        var found: [Int64] = []
        var read = 0
        var needle = text
        try needle.withUTF8 { needle in
            for (sql, arguments) in plan.seekStatements(selecting: columns) where found.count < wanted && read < budget {
                let statement = try db.cachedStatement(sql: sql)
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(arguments + [(budget - read).databaseValue]))
                let row = StatementRow(statement)
                try withExtendedLifetime(cursor) {
                    while try cursor.next() != nil {
                        read += 1
                        let contains =
                            row.withText(1) { SearchWalk.contains($0, needle) }
                            || (hasSubtitle && row.withText(2) { SearchWalk.contains($0, needle) })
                        guard contains, let key = row.integer(0) else { continue }
                        found.append(key)
                        if found.count == wanted { break }
                    }
                }
            }
        }
        return found.count == wanted || read < budget ? found : nil
    }
}
