import Domain
import GRDB

extension StoreEngine {
    /// Where the page of `query.limit` rows that ends just before `position` starts, in the list
    /// `query` describes (its own position ignored): the position a forward page reads on from.
    /// Nil when fewer than a page and one more rows precede it: the page before is then the
    /// list's first page.
    ///
    /// Only the positions are read backwards (the order's key columns, through the same
    /// conditions and search restriction as the list's feed); the page itself is then read
    /// forwards like any other, so every list shape pages back with the one page reader.
    /// `rows`: how many rows the page holds before the position (default: the query's limit).
    public func pageStart(before position: [SortValue], in query: CatalogQuery, rows: Int? = nil) throws(StoreError) -> [SortValue]? {
        let table = try table(query.collection)
        return try StoreError.catching {
            return try readFeed { db, restrict in
                var positioned = query
                positioned.after = position
                var plan = try CatalogPageQuery(positioned, table: table)
                guard let before = plan.after else { return nil }
                if let text = CatalogPageQuery.folded(query.search) { try restrict(&plan, text) }
                let wanted = max(rows ?? plan.limit, 0) + 1
                var count = 0
                var start: [SortValue]?
                for (sql, arguments) in plan.positionsBefore(before) where count < wanted {
                    try db.each(sql, arguments + [(wanted - count).databaseValue]) { row in
                        count += 1
                        guard count == wanted else { return true }
                        start = plan.position(ofKeys: row)
                        return false
                    }
                }
                return start
            }
        }
    }

    /// The position of the row `id` in the list `query` describes (its position ignored), read
    /// through the list's conditions and search restriction; nil when the row is not in it.
    public func position(of id: EntityID, in query: CatalogQuery) throws(StoreError) -> [SortValue]? {
        let table = try table(query.collection)
        return try StoreError.catching {
            return try readFeed { db, restrict in
                var query = query
                query.after = nil
                var plan = try CatalogPageQuery(query, table: table)
                if let text = CatalogPageQuery.folded(query.search) { try restrict(&plan, text) }
                let (sql, arguments) = plan.membershipStatement(id: id.rawValue)
                return try db.first(sql, arguments) { row in plan.position(ofKeys: row) }
            }
        }
    }
}
