import GRDB

/// Search pages: the plan depends on how many rows match, so it is chosen per request.
///
/// 1. The rows that can contain the text come from the trigram index: a text of three or more
///    characters as a phrase of its trigrams (exact); one of one or two characters as any of the
///    trigrams that contain it (`SearchGrams`), plus the rows with a column that short, checked
///    against the text. No such trigram and no short row: no match, answered at once.
/// 2. Up to `probe` matches are read. None: an empty page. That few: the page reads those
///    rows by key and sorts them (`CatalogPageQuery.addKeys`), wherever in the order they are.
/// 3. More matches of a phrase: their keys are read and the order's index is scanned for the
///    first of them (`scanForMatches`); when they cluster late in the order, read by key and sorted.
///    In an ordered table (`TitleOrder`), whose matches are keys only through the `ord` index,
///    as 4.
/// 4. More matches of a short text, or a short text in more than `trigrams` trigrams (a common
///    one, whose query of them all would cost more than it saves): the order is walked checking
///    the text in each row, which fills a page within few rows when matches are spread over it.
///    The walk gives up after `walk` rows: then up to `keys` matches are read by key
///    and sorted; beyond that SQLite walks the index probing them (or, for a common text,
///    checking the text in each row). The limits are `Options.search`.
///
/// Rows inserted since the index was last written wait for it (`SearchBacklog`): each plan
/// reads those that contain the text first (`BacklogMatches`, in the page's snapshot) and takes
/// them with the index's matches; the walks check the text in the rows, and find them anyway.
///
/// In an order by the title of an ordered table, the search index's own order is the list's:
/// its matches are read from the position on, a page at a time
/// (`CatalogStore+OrderedSearch.swift`), before any of the above. In an order by the title of
/// another table (a child collection), 3 and 4 are a walk of the index, which holds both texts.
extension CatalogStore {
    enum SearchPlan {
        /// No row can match.
        case nothing
        /// The plan now reads the matches.
        case planned
        /// Many rows match: walk the order (the plan is unchanged) checking the text; if the
        /// walk gives up, `matches` (nil: the text checked in every row) find them.
        case common(matches: Matches?)
    }

    /// The keys of the rows that can contain a text: a subquery selecting `pk`, a superset for a
    /// short text (`exact` false).
    struct Matches {
        /// Queries selecting `pk`; a row can come from more than one (a short and a long column).
        let sources: [(sql: String, arguments: [DatabaseValue])]
        let exact: Bool

        var sql: String { sources.map(\.sql).joined(separator: " UNION ") }
        var arguments: [DatabaseValue] { sources.flatMap(\.arguments) }
    }

    /// Plans the search for `text` (folded, not blank) in `plan`.
    func planSearch(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> SearchPlan {
        let table = plan.table
        guard let matchSQL = table.searchMatchSQL else { return .nothing }
        let waiting = try BacklogMatches.read(text, in: table, db)
        // In an order by the title: the matches in order from the index keyed by it
        // (CatalogStore+OrderedSearch.swift).
        if plan.titleOrderColumn != nil, table.ordered, let planned = try orderedSearchPlan(text, waiting: waiting, in: &plan, db) {
            return planned ? .planned : .nothing
        }
        var sources: [(sql: String, arguments: [DatabaseValue])] = waiting.source.map { [$0] } ?? []
        let exact = text.unicodeScalars.count >= 3
        if exact {
            sources.append((matchSQL, [Self.ftsString(text).databaseValue]))
        } else {
            let trigrams = try SearchGrams.trigrams(db, table: table, containing: text, limit: options.search.trigrams)
            if trigrams.count > options.search.trigrams {
                if plan.titleOrderColumn != nil {
                    plan.addSubstringFilter(text)
                    return .planned
                }
                return .common(matches: nil)
            }
            if !trigrams.isEmpty {
                sources.append(
                    (
                        matchSQL,
                        [trigrams.map(Self.ftsString).joined(separator: " OR ").databaseValue]
                    ))
            }
            sources.append(("SELECT pk FROM \(CatalogTable.quote(table.name)) WHERE \(SearchGrams.shortTextCondition)", []))
        }
        let matches = Matches(sources: sources, exact: exact)
        let keys = try Self.keys(matches, limit: options.search.probe, db)
        if keys.isEmpty { return .nothing }
        if keys.count > options.search.probe {
            // In an order by the title, whose index holds both texts, the walk checks the text in
            // index entries without reading a row: matches spread over the order fill a page
            // within a few thousand entries.
            if plan.titleOrderColumn != nil {
                plan.addSubstringFilter(text)
                return .planned
            }
            // A phrase's matches come from its doclists at about the cost of a walk that finds
            // none: SQLite reads them once and probes them along the order. A short text's are
            // a union of many: walk first. So does a phrase in an ordered table, whose matches
            // are keys only through the `ord` index (a seek each: a third more per match).
            guard exact, !table.ordered else { return .common(matches: matches) }
            try scanForMatches(matches, text: text, in: &plan, db)
            return .planned
        }
        Self.read(keys, text: text, exact: exact, into: &plan)
        return .planned
    }

    /// The plan once a walk gave up: the matches read by key when there are few enough, else probed.
    func fallback(_ plan: CatalogPageQuery, text: String, matches: Matches?, _ db: Database) throws -> CatalogPageQuery {
        var plan = plan
        guard let matches else {
            plan.addSubstringFilter(text)
            return plan
        }
        let keys = try Self.keys(matches, limit: options.search.keys, db)
        if keys.count <= options.search.keys {
            Self.read(keys, text: text, exact: matches.exact, into: &plan)
        } else {
            if !matches.exact { plan.addSubstringFilter(text) }
            plan.addMatches(matches.sql, matches.arguments)
        }
        return plan
    }

    /// Many matches of a phrase: their keys are read into memory and the order's index is
    /// scanned for the first of them (an index entry costs a fraction of a row), so the page
    /// reads only its own rows by key. Matches that cluster late in the order (a word that starts
    /// titles, in title order) exhaust the scan: then they are all read by key and sorted.
    private func scanForMatches(_ matches: Matches, text: String, in plan: inout CatalogPageQuery, _ db: Database) throws {
        let limits = options.search
        let keys = try Self.keys(matches, limit: limits.scanKeys, db)
        guard keys.count <= limits.scanKeys else {
            plan.addMatches(matches.sql, matches.arguments)
            return
        }
        let wanted = Set(keys)
        var found: [Int64] = []
        var read = 0
        for (sql, arguments) in plan.seekStatements(selecting: "t.pk") where found.count <= plan.limit && read < limits.scan {
            let cursor = try Int64.fetchCursor(
                db.cachedStatement(sql: sql), arguments: StatementArguments(values: arguments + [(limits.scan - read).databaseValue]))
            while let key = try cursor.next() {
                read += 1
                if wanted.contains(key) {
                    found.append(key)
                    if found.count > plan.limit { break }
                }
            }
        }
        // The page and one more, or every match after the position; else all of them, by key.
        plan.addKeys(found.count > plan.limit || read < limits.scan ? found : keys)
    }

    /// The keys of `matches`, at most `limit + 1`. Each source is read with its own LIMIT: a
    /// UNION would deduplicate all of its rows before the LIMIT applies.
    static func keys(_ matches: Matches, limit: Int, _ db: Database) throws -> [Int64] {
        var seen = Set<Int64>()
        var keys: [Int64] = []
        for source in matches.sources where keys.count <= limit {
            let found = try Int64.fetchAll(
                db.cachedStatement(sql: source.sql + " LIMIT ?"),
                arguments: StatementArguments(values: source.arguments + [(limit + 1).databaseValue]))
            for key in found where seen.insert(key).inserted { keys.append(key) }
        }
        return Array(keys.prefix(limit + 1))
    }

    private static func read(_ keys: [Int64], text: String, exact: Bool, into plan: inout CatalogPageQuery) {
        // A short text's keys are a superset: the filter checks each row.
        if !exact { plan.addSubstringFilter(text) }
        plan.addKeys(keys)
    }

    /// `text` as one FTS5 string (a phrase of its trigrams).
    static func ftsString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// A walk through a list's order that keeps the rows containing `text` (folded) in their
/// title or subtitle key, as `instr` would: bytes, not characters.
struct SearchWalk {
    let text: String
    let budget: Int

    /// Whether the current row's keys (at `titleColumn` and the next) contain the text.
    func matches(_ row: StatementRow, titleColumn: Int) -> Bool {
        var needle = text
        return needle.withUTF8 { needle in
            row.withText(titleColumn) { Self.contains($0, needle) } || row.withText(titleColumn + 1) { Self.contains($0, needle) }
        }
    }

    static func contains(_ haystack: UnsafeBufferPointer<UInt8>?, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let haystack, haystack.count >= needle.count, let first = needle.first else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
