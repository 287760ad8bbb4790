import GRDB

/// Search plans for an order by the title (`CatalogPageQuery.titleOrderColumn`), whose index
/// holds both searched texts: SQLite checks the text in each index entry (`instr` on the title's
/// sort key and the subtitle key) and reads a row only when it matches, a fraction of a
/// microsecond per entry. So the page walks the order with the text as its filter: matches
/// spread over the order ("keyboard", a word inside many titles) fill a page within a few
/// thousand entries.
///
/// Matches that cluster late in the order are mostly titles that start with the text ("walnut
/// …" in an order by name), which a walk would reach only after most of the index. Those are
/// one range of it: `titlePrefixPlan` reads the range from the position and merges it with every
/// other match, read by key.
extension CatalogStore {
    /// The titles that start with the text's first three characters, read as one range of the
    /// index, and the other matches of the phrase: when those are few enough to read by key,
    /// the page is the two merged. False (plan unchanged) otherwise. `text` has three characters
    /// or more.
    ///
    /// The range of the first trigram rather than of the whole text: FTS5 tells a title that
    /// starts with one trigram (`^"wal"`) from one doclist, and the range's walk checks the text.
    func titlePrefixPlan(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3, let search = plan.table.searchTable.map(CatalogTable.quote) else { return false }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<3])
        let prefix = String(view)
        guard var range = plan.restricted(toTitlesStartingWith: prefix) else { return false }
        // A range with no title after the position has nothing to merge: a seek or two say so,
        // before FTS5 reads the doclists the other matches need.
        var starts = false
        for (sql, arguments) in range.seekStatements(selecting: "t.pk") where !starts {
            starts = try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(values: arguments + [1.databaseValue])) != nil
        }
        guard starts else { return false }
        // The other matches: first a superset from a few trigrams; when that has too many,
        // the phrase, which costs more but holds only true matches ("heated": its trigrams are
        // also in thousands of "headphones … limited").
        var others: [Int64] = []
        for expression in [Self.trigramsExpression(scalars), Self.ftsString(text)] {
            others = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT rowid FROM \(search) WHERE \(search) MATCH ? LIMIT ?"),
                arguments: ["(\(expression)) NOT title_key : ^\(Self.ftsString(prefix))", options.search.others + 1])
            if others.count <= options.search.others { break }
        }
        guard others.count <= options.search.others else { return false }
        // Both parts are checked: the other matches are a superset, the range holds titles
        // that start with the trigram but may not contain the text.
        plan.addSubstringFilter(text)
        range.addSubstringFilter(text)
        var found: [Int64] = []
        for (sql, arguments) in range.seekStatements(selecting: "t.pk") where found.count <= range.limit {
            found += try Int64.fetchAll(
                db.cachedStatement(sql: sql), arguments: StatementArguments(values: arguments + [(range.limit + 1 - found.count).databaseValue]))
        }
        plan.addKeys(others + found)
        return true
    }

    /// A superset of the rows containing a text of three characters or more, cheaper than its
    /// phrase: its first and last trigrams, and one from the middle of a text of nine or more,
    /// all required (`"wal" AND "t c" AND "air"` for "walnut chair"). FTS5 reads a phrase's
    /// every trigram with positions: "titanium" as a phrase of six cost 3 times these two.
    static func trigramsExpression(_ scalars: [Unicode.Scalar]) -> String {
        var offsets = [0, scalars.count - 3]
        if scalars.count >= 9 { offsets.insert((scalars.count - 3) / 2, at: 1) }
        var seen = Set<String>()
        var trigrams: [String] = []
        for offset in offsets {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[offset..<(offset + 3)])
            let text = String(trigram)
            if seen.insert(text).inserted { trigrams.append(ftsString(text)) }
        }
        return trigrams.joined(separator: " AND ")
    }
}
