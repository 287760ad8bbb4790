import Domain
import GRDB

/// Pages in keyset order, with search and sections.
///
/// Search picks its plan per request. A query of three or more characters first counts its
/// full-text matches, up to `Options.searchMatchThreshold` (2,000): fewer than that, and the page is cut from the
/// sorted matches; more, and the term is common enough that walking the sort index and
/// checking each row's folded text finds a page after a few hundred rows. Queries of one or two
/// characters cannot use the trigram index and always take the walk (cheap for common text,
/// a full scan for text that matches nothing).
extension SQLiteStore {
    public func page(_ query: ListQuery) throws(StoreError) -> Page {
        var plan = try PageQuery(query)
        do {
            return try pool.read { db in
                let statements: [(sql: String, arguments: [DatabaseValue])]
                if let search = plan.search {
                    let match = Self.matchExpression(search)
                    if search.unicodeScalars.count >= 3, try searchMatchCount(db, plan: plan, match: match) < options.searchMatchThreshold {
                        statements = [plan.searchStatement(match: match)]
                    } else {
                        plan.addSubstringFilter(search)
                        statements = plan.seekStatements()
                    }
                } else {
                    statements = plan.seekStatements()
                }
                return try fetchPage(db, plan: plan, statements: statements)
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    private func fetchPage(_ db: Database, plan: PageQuery, statements: [(sql: String, arguments: [DatabaseValue])]) throws -> Page {
        let wanted = plan.limit + 1
        var items: [Versioned<StoredItem>] = []
        items.reserveCapacity(wanted)
        var lastPosition: [SortValue]?
        for (sql, arguments) in statements {
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: sql), arguments: StatementArguments(arguments + [(wanted - items.count).databaseValue]))
            while let row = try rows.next() {
                let item = try ItemColumns.decode(row, in: plan.table.collection)
                items.append(item)
                if items.count == plan.limit { lastPosition = plan.position(of: row, id: item.item.id) }
                if items.count == wanted { break }
            }
            if items.count == wanted { break }
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

    /// An FTS5 string literal: the trigram tokenizer makes it a phrase of the text's trigrams,
    /// which matches exactly the rows that contain the text. Quoting keeps FTS5 syntax
    /// (`AND`, `*`, `:`) in user text literal.
    static func matchExpression(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
