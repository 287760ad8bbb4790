import Domain
import GRDB

/// Search pages: a plan per request, because no single plan is cheap for every query on a large
/// collection.
///
/// 1. The rows that can contain the text come from the trigram index (`SearchMatches`). A text
///    of three or more characters requires its first, middle and last trigrams; one of one or
///    two characters any of the trigrams that contain it (`SearchGrams`). No such trigram, no
///    rows: a short text that occurs nowhere answers at once instead of scanning the table.
/// 2. The matches are counted up to `Options.searchMatchThreshold` (5,000). Fewer, and the page
///    is cut from the matches, sorted (a few milliseconds).
/// 3. Ordered by title, titles that start with the text are one range of the title index, and
///    a common word usually starts them ("smart …", "walnut …"): all of its matches sit late in
///    the order, where walking the index from the start read 700,000 entries. When the matches
///    whose title does not start with the text's first trigram are fewer than
///    `Options.searchRemainderThreshold`, the page merges that range with them, sorted.
/// 4. Otherwise, ordered by title, the title index is walked from the position testing the text
///    in each entry, which holds both searched columns (schema version 4): no row and no
///    full-text query is read for an entry that does not match, about 0.2 µs per entry.
/// 5. In other orders the sort index holds neither column. It is walked from the position,
///    checking each row's text, which finds a page within a few hundred rows when matches are
///    spread over the order; the walk gives up after `Options.searchWalkBudget` rows (1,500).
/// 6. Then the matches cluster somewhere later in that order: the sort index is walked again,
///    testing only membership in the matches, which SQLite answers from the index entries
///    without reading the rows (`PageQuery.membershipStatement`).
///
/// A short text in more than `Options.searchGramLimit` trigrams is too common for a query of
/// them all to pay: ordered by title it is walked (4); otherwise walked (5), then the table
/// scanned with the text as filter.
extension SQLiteStore {
    func searchPage(_ db: Database, plan: PageQuery, text: String) throws -> Page {
        // The matches are a superset (see matchExpression, SearchGrams): these plans check the text.
        var verified = plan
        verified.addSubstringFilter(text)
        let walk = TextWalk(plan: plan, text: text, budget: options.searchWalkBudget)
        let matches: SearchMatches
        if text.unicodeScalars.count < 3 {
            let trigrams = try SearchGrams.trigrams(db, table: plan.table.name, containing: text, limit: options.searchGramLimit + 1)
            if trigrams.isEmpty { return Page(items: [], nextAfter: nil) }
            if trigrams.count > options.searchGramLimit {
                if !plan.startsWithTitle, let rows = try fetchRows(db, plan: plan, statements: plan.seekStatements(), walk: walk) {
                    return try makePage(db, plan: plan, rows: rows)
                }
                return try fetchPage(db, plan: verified, statements: verified.seekStatements())
            }
            matches = SearchMatches(trigrams: trigrams)
        } else {
            matches = SearchMatches(expression: Self.matchExpression(text))
        }
        if let few = try keys(db, plan: plan, matches: matches, below: options.searchMatchThreshold) {
            return try fetchPage(db, plan: verified, statements: [verified.searchStatement(matches: few)])
        }
        if plan.startsWithTitle {
            let prefix = String(String.UnicodeScalarView(text.unicodeScalars.prefix(3)))
            // A word that starts no title ("kettle") has nothing to merge; asking FTS5 for the
            // titles that do not start with it would read its doclists' positions (5 to 8 ms).
            if text.unicodeScalars.count >= 3, try hasTitles(db, plan: plan, startingWith: prefix) {
                let others = matches.excludingTitles(startingWith: prefix)
                if let few = try keys(db, plan: plan, matches: others, below: options.searchRemainderThreshold) {
                    return try titlePrefixPage(db, plan: plan, verified: verified, prefix: prefix, others: few)
                }
            }
            return try fetchPage(db, plan: verified, statements: verified.seekStatements())
        }
        if let rows = try fetchRows(db, plan: plan, statements: plan.seekStatements(), walk: walk) {
            return try makePage(db, plan: plan, rows: rows)
        }
        return try fetchPage(db, plan: plan, statements: [plan.membershipStatement(matches: matches, text: text)])
    }

    /// Plan 3: the titles that start with the text's first trigram, a range of the title index
    /// read in order, merged with `others` (every other match), sorted. The two are disjoint.
    ///
    /// The first trigram rather than the whole text: FTS5 checks `^"wir"` from one doclist, but
    /// `^"wireless"` as a phrase of six (11 ms instead of 4 on a million products). The range may
    /// then hold titles without the text; the walk tests the text in the index entries and passes
    /// over them there.
    private func titlePrefixPage(_ db: Database, plan: PageQuery, verified: PageQuery, prefix: String, others: SearchMatches) throws -> Page {
        var prefixed = verified
        prefixed.addTitlePrefixFilter(prefix)
        let starting = try fetchRows(db, plan: prefixed, statements: prefixed.seekStatements(), everyPosition: true) ?? []
        let rest = try fetchRows(db, plan: verified, statements: [verified.searchStatement(matches: others)], everyPosition: true) ?? []
        var merged: PageRows = []
        merged.reserveCapacity(plan.limit + 1)
        var (left, right) = (starting[...], rest[...])
        while merged.count <= plan.limit {
            if let b = right.first, left.first.map({ plan.precedes(b.position ?? [], $0.position ?? []) }) ?? true {
                merged.append(b)
                right.removeFirst()
            } else if let a = left.first {
                merged.append(a)
                left.removeFirst()
            } else {
                break
            }
        }
        return try makePage(db, plan: plan, rows: merged)
    }

    /// Whether any title starts with `prefix`: one seek in the title index.
    private func hasTitles(_ db: Database, plan: PageQuery, startingWith prefix: String) throws -> Bool {
        let sql = "SELECT EXISTS (SELECT 1 FROM \(plan.table.name) AS t WHERE \(PageQuery.titlePrefixCondition))"
        return try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: [prefix, prefix]) ?? false
    }

    /// The keys of `matches` when there are fewer than `limit`, nil otherwise.
    private func keys(_ db: Database, plan: PageQuery, matches: SearchMatches, below limit: Int) throws -> SearchMatches? {
        guard limit > 0 else { return nil }
        let keys = matches.keys(in: plan.table)
        let statement = try db.cachedStatement(sql: "\(keys.sql) LIMIT ?")
        let found = try Int64.fetchAll(statement, arguments: StatementArguments(keys.arguments + [limit.databaseValue]))
        guard found.count < limit else { return nil }
        var few = matches
        few.knownKeys = found
        return few
    }

    /// The FTS5 query for a text of three or more characters: its first and last trigrams, and
    /// one from the middle of longer texts, all required (`"wal" AND "t c" AND "air"` for
    /// "walnut chair").
    ///
    /// A row that contains the text contains them, so the match is a superset that the plans
    /// narrow with `instr`. The cost of an FTS5 query is about the length of the doclists it
    /// reads: the exact phrase (every overlapping trigram, in sequence, with positions) takes
    /// 6 ms for "walnut chair" on a million products, these three 2 ms for the same 2,112 rows.
    static func matchExpression(_ text: String) -> String {
        let characters = Array(text.unicodeScalars)
        guard characters.count > 3 else { return quoted(text) }
        var offsets = [0, characters.count - 3]
        if characters.count >= 9 { offsets.insert((characters.count - 3) / 2, at: 1) }
        var seen = Set<String>()
        let trigrams = offsets.compactMap { offset -> String? in
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: characters[offset..<(offset + 3)])
            let text = String(trigram)
            return seen.insert(text).inserted ? quoted(text) : nil
        }
        return trigrams.joined(separator: " AND ")
    }

    /// A string literal of FTS5: quoting keeps its syntax (`AND`, `*`, `:`) in user text literal.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
