import Domain
import GRDB

/// Where the page before a position starts: the position a forward page reads on from (nil:
/// the list's first row), and how many rows it holds before the position.
public struct PageStart: Sendable, Equatable {
    public var after: [SortValue]?
    /// The page's rows up to the position: the rows asked for, or fewer when fewer precede it
    /// (the list's first page then ends at the position rather than running past it).
    public var rows: Int

    public init(after: [SortValue]?, rows: Int) {
        self.after = after
        self.rows = rows
    }
}

extension StoreEngine {
    /// Where the page of `query.limit` rows that ends just before `position` starts, in the list
    /// `query` describes (its own position ignored). When fewer than a page and one more rows
    /// precede it, the page before is the list's first, holding only the rows before the
    /// position. `rows`: how many rows the page holds before the position (default: the
    /// query's limit).
    ///
    /// Only the positions are read backwards (the order's key columns); the page itself is then
    /// read forwards like any other, so every list shape pages back with the one page reader.
    public func pageStart(before position: [SortValue], in query: CatalogQuery, rows: Int? = nil) throws(StoreError) -> PageStart {
        var positioned = query
        positioned.after = position
        let asked = max(rows ?? query.limit, 0)
        return try onListPlan(positioned) { db, plan, before in
            guard let before else { return PageStart(after: nil, rows: asked) }
            let wanted = asked + 1
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
            return PageStart(after: start, rows: min(count, asked))
        }
    }

    /// The position of the row `id` in the list `query` describes (its position ignored); nil
    /// when the row is not in it.
    public func position(of id: EntityID, in query: CatalogQuery) throws(StoreError) -> [SortValue]? {
        var unpositioned = query
        unpositioned.after = nil
        return try onListPlan(unpositioned) { db, plan, _ in
            let (sql, arguments) = plan.membershipStatement(id: id.rawValue)
            return try db.first(sql, arguments) { row in plan.position(ofKeys: row) }
        }
    }

    /// `body` on the plan of the list `query` describes, in one snapshot, its search restricted
    /// to exactly its matches as the list's feed restricts it; with the query's position as the
    /// database values it binds (nil without one).
    func onListPlan<T>(
        _ query: CatalogQuery, _ body: (any RowSource, CatalogPageQuery, [DatabaseValue]?) throws -> T
    ) throws(StoreError) -> T {
        let table = try table(query.collection)
        return try StoreError.catching {
            return try readFeed { db, restrict in
                var plan = try CatalogPageQuery(query, table: table)
                let position = plan.after
                if let text = CatalogPageQuery.folded(query.search) { try restrict(&plan, text) }
                return try body(db, plan, position)
            }
        }
    }
}
