import Domain
import GRDB

/// Pages, searches and the change feed on PostgreSQL: the SQLite store's SQL and row reading
/// (`CatalogPageQuery`, `CatalogStore.readRows`), each page read by one statement
/// (`CatalogPageQuery.seekStatement`; a search's, `boundedSearchStatement`).
///
/// A page is that one statement on a connection, outside any transaction: one statement is its
/// own snapshot, and a page is one round trip (BEGIN and COMMIT around it were two more, each a
/// wake-up of the server's backend and of the caller). Sections headed by a referenced item's
/// title read that item in the same statement (`CatalogPageQuery.joinSectionItems`); a page
/// with the items its references point to (`page`) reads them in one repeatable-read snapshot.
extension PostgresStore {
    func readPageRows<T>(
        _ query: CatalogQuery, table: CatalogTable, snapshot: Bool, restart: () -> Void,
        each: (PageReading, StatementRow, EntityID) throws -> Void, finish: (PageReading, PageEnd) throws -> T
    ) throws -> T {
        var plan = try CatalogPageQuery(query, table: table)
        if Self.sectionsReadOtherItems(query, table) { plan.joinSectionItems(tables) }
        let statement =
            if let text = CatalogPageQuery.folded(query.search) {
                plan.boundedSearchStatement(pattern: Self.pattern(text), walk: options.search.walk)
            } else {
                plan.seekStatement()
            }
        let tables = tables
        let (joined, layout) = (plan.joined, plan.layout)
        func read(_ db: any SQLConnection) throws -> T {
            let reading = PageReading(source: db, tables: tables, layout: layout, joined: joined)
            let end = try CatalogStore.readRows(Self.pageSource(db, query), plan, statements: [statement], walking: nil) { row, id in
                try each(reading, row, id)
            }
            guard let end else { throw StoreError.invariant("a page read without a walk gave up") }
            return try finish(reading, end)
        }
        return try snapshot ? pool.reading(read) : pool.withConnection(read)
    }

    /// Where a page's statement runs: prepared once on `db`, or planned for its text when it
    /// searches (`PostgresPlannedEachTime`).
    static func pageSource(_ db: any SQLConnection, _ query: CatalogQuery) -> any RowSource {
        guard CatalogPageQuery.folded(query.search) != nil, let connection = db as? PostgresConnection else { return db }
        return PostgresPlannedEachTime(connection: connection)
    }

    /// Keeps the rows whose folded title or subtitle contains the folded text, as SQLite's
    /// search does, through the trigram indexes. A page reads them by a statement of its own
    /// (`boundedSearchStatement`).
    static func restrict(_ plan: inout CatalogPageQuery, toMatchesOf text: String) {
        let pattern = pattern(text)
        plan.add(CatalogPageQuery.matchSQL("t"), [pattern.databaseValue, pattern.databaseValue])
    }

    /// The LIKE pattern of rows containing `text`.
    static func pattern(_ text: String) -> String { "%" + likeEscaped(text) + "%" }

    /// `text` with LIKE's wildcards and its escape (a backslash, PostgreSQL's default) escaped.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// In one repeatable-read snapshot; a list's search is narrowed through the trigram indexes.
    /// The same LIKE test its searches make (`restrict`): PostgreSQL checks it in each row.
    static func filterRows(_ plan: inout CatalogPageQuery, containing text: String) {
        restrict(&plan, toMatchesOf: text)
    }

    func readFeed<T>(_ body: (any RowSource, (inout CatalogPageQuery, String) throws -> Void) throws -> T) throws -> T {
        try pool.reading { db in try body(db) { plan, text in Self.restrict(&plan, toMatchesOf: text) } }
    }
}
