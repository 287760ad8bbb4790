import Domain
import GRDB

/// Pages, searches and the change feed on PostgreSQL: the SQLite store's SQL and row reading
/// (`CatalogPageQuery`, `CatalogStore.readRows`), each page in one repeatable-read snapshot.
extension PostgresStore {
    public func page(_ query: CatalogQuery) throws(StoreError) -> CatalogPage {
        let table = try table(query.collection)
        var items: [Versioned<Item>] = []
        items.reserveCapacity(query.limit)
        do {
            return try pool.reading { db in
                let end = try CatalogStore.readRows(db, try plan(query, table: table), walking: nil) { row, id in
                    items.append(try CatalogColumns.decode(row, in: table, id: id))
                }
                guard let end else { throw StoreError.invariant("a page read without a walk gave up") }
                return CatalogPage(
                    items: items, nextAfter: end.nextAfter,
                    references: try CatalogStore.references(db, of: items.map(\.item), in: table, fields: query.references, tables: tables))
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    public func visitPage(_ query: CatalogQuery, restart: () -> Void, visit: (PageRow) throws -> Void) throws(StoreError) -> PageEnd {
        let table = try table(query.collection)
        do {
            return try pool.reading { db in
                let reading = PageReading(source: db, tables: tables)
                let end = try CatalogStore.readRows(db, try plan(query, table: table), walking: nil) { row, id in
                    try visit(PageRow(row: row, table: table, id: id, reading: reading))
                }
                guard let end else { throw StoreError.invariant("a page read without a walk gave up") }
                return end
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// The page's plan; a search keeps the rows whose folded title or subtitle contains the
    /// folded text, as SQLite's search does, through the trigram indexes (`LIKE '%text%'`).
    private func plan(_ query: CatalogQuery, table: CatalogTable) throws -> CatalogPageQuery {
        var plan = try CatalogPageQuery(query, table: table)
        if let text = CatalogPageQuery.folded(query.search) { Self.restrict(&plan, toMatchesOf: text) }
        return plan
    }

    static func restrict(_ plan: inout CatalogPageQuery, toMatchesOf text: String) {
        let pattern = "%" + likeEscaped(text) + "%"
        plan.add("(t.title_key LIKE ? OR t.subtitle_key LIKE ?)", [pattern.databaseValue, pattern.databaseValue])
    }

    /// `text` with LIKE's wildcards and its escape (a backslash, PostgreSQL's default) escaped.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    public func changes(_ collection: String, after sequence: Int64, limit: Int, in list: CatalogQuery?) throws(StoreError)
        -> CatalogChangeBatch
    {
        let table = try table(collection)
        let tables = tables
        do {
            return try pool.reading { db in
                try CatalogStore.readChanges(db, table: table, after: sequence, limit: limit, in: list, tables: tables) { plan, text in
                    Self.restrict(&plan, toMatchesOf: text)
                }
            }
        } catch {
            throw StoreError.from(error)
        }
    }
}
