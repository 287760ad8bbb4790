import Domain
import GRDB

/// Where a changed item now stands in one list: what lets a client put a row from the change
/// feed in place without reading the list again.
public enum ListPlacement: Sendable, Hashable {
    /// Not in the list: a filter, the search or the parent no longer (or never) holds.
    case outside
    /// The list's first row.
    case first
    /// Just after the row with this id, in the list's order.
    case after(EntityID)
}

extension CatalogStore {
    /// Places items in the list a query describes (its position and limit are ignored), inside
    /// one read so every placement describes the same state.
    ///
    /// A changed item's place is read in two steps: whether its row is in the list (the list's
    /// conditions and, for a search, the text checked in that row alone), then, for a row that
    /// is, the row before it in the list as its database searches it. The second step searches
    /// the whole list, and a list's feed (every stream of it) reads each change of its
    /// collection: most are of rows outside a given search, which now cost one row's check.
    struct ListPlacer {
        /// Whether a row is in the list, the search's text checked in the row.
        let member: CatalogPageQuery
        /// The list narrowed as its database searches, made at the first row in it.
        private var ordered: CatalogPageQuery?
        private let query: CatalogQuery
        private let text: String?
        let kind: EntityKind

        /// `filter` checks a search's text (folded) in one row, the way its database does.
        init(_ query: CatalogQuery, table: CatalogTable, filter: (inout CatalogPageQuery, String) -> Void) throws {
            var query = query
            query.after = nil
            var member = try CatalogPageQuery(query, table: table)
            text = CatalogPageQuery.folded(query.search)
            if let text { filter(&member, text) } else { ordered = member }
            self.member = member
            self.query = query
            kind = table.collection.kind
        }

        /// `restrict` narrows the list to a search's matches, the way its database searches
        /// (given the folded text).
        mutating func place(_ id: EntityID, _ db: any RowSource, restrict: (inout CatalogPageQuery, String) throws -> Void) throws -> ListPlacement {
            let (sql, arguments) = member.membershipStatement(id: id.rawValue)
            let position = try db.first(sql, arguments) { row in
                member.keys.indices.map { column in
                    member.keys[column].column.isText ? (row.text(column)?.databaseValue ?? .null) : (row.integer(column)?.databaseValue ?? .null)
                }
            }
            guard let position else { return .outside }
            let plan: CatalogPageQuery
            if let ordered {
                plan = ordered
            } else {
                var narrowed = try CatalogPageQuery(query, table: member.table)
                if let text { try restrict(&narrowed, text) }
                ordered = narrowed
                plan = narrowed
            }
            for (sql, arguments) in plan.precedingStatements(before: position) {
                guard let previous = try db.first(sql, arguments, { $0.text(0) }) else { continue }
                guard let previousID = EntityID(parsing: previous, kind: kind) else {
                    throw StoreError.invariant("a row's id \(previous) is malformed")
                }
                return .after(previousID)
            }
            return .first
        }
    }

    /// Restricts a plan to exactly the rows a search for `text` (folded) finds, whatever the
    /// position: a phrase's matches by key (the rows waiting for the index among them,
    /// `BacklogMatches`) when there are at most `keys` of them, else (and for a text of one or
    /// two characters) the text checked in each row the walk reads.
    static func restrict(_ plan: inout CatalogPageQuery, toMatchesOf text: String, keys limit: Int, _ db: Database) throws {
        if text.unicodeScalars.count >= 3, let sql = plan.table.searchMatchSQL {
            let waiting = try BacklogMatches.read(text, in: plan.table, db)
            let matches = Matches(sources: (waiting.source.map { [$0] } ?? []) + [(sql, [ftsString(text).databaseValue])], exact: true)
            let found = try keys(matches, limit: limit, db)
            if found.count <= limit {
                plan.addKeys(found)
                return
            }
        }
        plan.addSubstringFilter(text)
    }
}
