import Domain
import GRDB

/// Pages in keyset order, with search and sections.
///
/// Search picks a plan per request, because no single plan is cheap for every query on a large
/// collection:
///
/// 1. Queries of one or two characters cannot use the trigram index: the sort index is walked
///    and each row's folded title and subtitle checked (cheap for common text, a full scan for
///    text that matches nothing).
/// 2. Otherwise the full-text matches are counted, up to `Options.searchMatchThreshold`
///    (5,000). Fewer, and the page is cut from the matches, sorted (a few milliseconds).
/// 3. More, and the term is common: the sort index is walked from the position, checking each
///    row's text, which finds a page within a few hundred rows when matches are spread over
///    the order. The walk gives up after `Options.searchWalkBudget` rows (1,500).
/// 4. Then the matches cluster somewhere later in the order (a name word, under a name
///    sort): the sort index is walked again, testing only membership in the full-text matches,
///    which SQLite answers from the index entries without reading the rows.
extension SQLiteStore {
    public func page(_ query: ListQuery) throws(StoreError) -> Page {
        var plan = try PageQuery(query)
        do {
            return try pool.read { db in
                guard let search = plan.search else {
                    return try fetchPage(db, plan: plan, statements: plan.seekStatements())
                }
                if search.unicodeScalars.count < 3 {
                    plan.addSubstringFilter(search)
                    return try fetchPage(db, plan: plan, statements: plan.seekStatements())
                }
                let match = Self.matchExpression(search)
                // The full-text match is a superset (see matchExpression): these plans check the text.
                var verified = plan
                verified.addSubstringFilter(search)
                if try searchMatchCount(db, plan: plan, match: match) < options.searchMatchThreshold {
                    return try fetchPage(db, plan: verified, statements: [verified.searchStatement(match: match)])
                }
                let walk = TextWalk(plan: plan, text: search, budget: options.searchWalkBudget)
                if let page = try fetchPage(db, plan: plan, statements: plan.seekStatements(), walk: walk) {
                    return page
                }
                return try fetchPage(db, plan: verified, statements: [verified.membershipStatement(match: match)])
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// A walk that keeps rows whose folded title or subtitle contains `text`, reading at most
    /// `budget` rows.
    private struct TextWalk {
        let needle: [UInt8]
        let titleColumn: Int
        let subtitleColumn: Int
        let budget: Int

        init(plan: PageQuery, text: String, budget: Int) {
            needle = Array(text.utf8)
            titleColumn = 2 + (plan.table.columns.firstIndex(of: "title_key") ?? 0)
            subtitleColumn = 2 + (plan.table.columns.firstIndex(of: "subtitle_key") ?? 0)
            self.budget = budget
        }

        /// Bytewise, like `instr` and the trigram index.
        func matches(_ row: Row) -> Bool {
            contains(row[titleColumn] as String?) || contains(row[subtitleColumn] as String?)
        }

        private func contains(_ text: String?) -> Bool {
            guard var text, !needle.isEmpty else { return false }
            return text.withUTF8 { haystack in
                guard haystack.count >= needle.count else { return false }
                let first = needle[0]
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    var offset = 1
                    while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                    if offset == needle.count { return true }
                }
                return false
            }
        }
    }

    /// Runs `statements` in order until the page is full; nil when a walk ran out of budget.
    private func fetchPage(
        _ db: Database, plan: PageQuery, statements: [(sql: String, arguments: [DatabaseValue])], walk: TextWalk? = nil
    ) throws -> Page? {
        let wanted = plan.limit + 1
        var items: [Versioned<StoredItem>] = []
        items.reserveCapacity(wanted)
        var lastPosition: [SortValue]?
        var read = 0
        statements: for (sql, arguments) in statements {
            // A walk cannot know how many rows it will read for a page, so it reads without LIMIT.
            let limit = walk == nil ? wanted - items.count : Int.max
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments + [limit.databaseValue]))
            while let row = try rows.next() {
                if let walk {
                    read += 1
                    if read > walk.budget { return nil }
                    if !walk.matches(row) { continue }
                }
                let item = try ItemColumns.decode(row, in: plan.table.collection)
                items.append(item)
                if items.count == plan.limit { lastPosition = plan.position(of: row, id: item.item.id) }
                if items.count == wanted { break statements }
            }
        }
        var nextAfter: [SortValue]?
        if items.count > plan.limit {
            items.removeLast(items.count - plan.limit)
            nextAfter = lastPosition
        }
        var page = Page(items: items, nextAfter: nextAfter)
        if plan.table.collection == .people {
            page.departments = try departments(db, of: items)
        }
        return page
    }

    private func fetchPage(_ db: Database, plan: PageQuery, statements: [(sql: String, arguments: [DatabaseValue])]) throws -> Page {
        guard let page = try fetchPage(db, plan: plan, statements: statements, walk: nil) else {
            throw StoreError.unavailable("a page without a walk budget came back empty-handed")
        }
        return page
    }

    /// The departments of the people on a page, for section headers.
    private func departments(_ db: Database, of items: [Versioned<StoredItem>]) throws -> [EntityID: Department] {
        var departments: [EntityID: Department] = [:]
        let statement = try db.cachedStatement(sql: "SELECT name FROM departments WHERE id = ?")
        for case .person(let person) in items.lazy.map(\.item) where departments[person.departmentID] == nil {
            if let name = try String.fetchOne(statement, arguments: [person.departmentID.rawValue]) {
                departments[person.departmentID] = Department(id: person.departmentID, name: name)
            }
        }
        return departments
    }

    /// Full-text matches of `match`, counted up to the threshold.
    private func searchMatchCount(_ db: Database, plan: PageQuery, match: String) throws -> Int {
        guard let fts = plan.table.searchTable else { return 0 }
        let statement = try db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM \(fts) WHERE \(fts) MATCH ? LIMIT ?)")
        return try Int.fetchOne(statement, arguments: [match, options.searchMatchThreshold]) ?? 0
    }

    /// The FTS5 query for a text of three or more characters: its first and last trigrams, and
    /// one from the middle of longer texts, all required (`"wal" AND "t c" AND "air"` for
    /// "walnut chair").
    ///
    /// A row that contains the text contains them, so the match is a superset that the plans
    /// narrow with `instr`. The cost of an FTS5 query is about the length of the doclists it
    /// reads: the exact phrase (every overlapping trigram, in sequence, with positions) takes
    /// 6 ms for "walnut chair" on a million products, these three 2 ms for the same 2,112 rows.
    /// Quoting keeps FTS5 syntax (`AND`, `*`, `:`) in user text literal.
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

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
