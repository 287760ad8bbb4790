import Domain
import GRDB

/// Pages in keyset order, with search (`SQLiteStore+Search.swift`) and sections.
extension SQLiteStore {
    public func page(_ query: ListQuery) throws(StoreError) -> Page {
        let plan = try PageQuery(query)
        do {
            return try pool.read { db in
                guard let search = plan.search else {
                    return try fetchPage(db, plan: plan, statements: plan.seekStatements())
                }
                return try searchPage(db, plan: plan, text: search)
            }
        } catch {
            throw StoreError.from(error)
        }
    }

    /// Rows of a page, in order, with their keyset positions: of every row when a plan merges
    /// two lists, else only of the page's last row (the next page starts there).
    typealias PageRows = [(item: Versioned<StoredItem>, position: [SortValue]?)]

    /// Runs `statements` in order until a page and one more row are read; nil when a walk ran
    /// out of budget.
    func fetchRows(
        _ db: Database, plan: PageQuery, statements: [(sql: String, arguments: [DatabaseValue])], walk: TextWalk? = nil,
        everyPosition: Bool = false
    ) throws -> PageRows? {
        let wanted = plan.limit + 1
        var rows: PageRows = []
        rows.reserveCapacity(wanted)
        var read = 0
        for (sql, arguments) in statements where rows.count < wanted {
            // A walk cannot know how many rows it will read for a page, so it reads without LIMIT.
            let limit = walk == nil ? wanted - rows.count : Int.max
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments + [limit.databaseValue]))
            while let row = try cursor.next() {
                if let walk {
                    read += 1
                    if read > walk.budget { return nil }
                    if !walk.matches(row) { continue }
                }
                let item = try ItemColumns.decode(row, in: plan.table.collection)
                let needed = everyPosition || rows.count == plan.limit - 1
                rows.append((item, needed ? plan.position(of: row, id: item.item.id) : nil))
                if rows.count == wanted { break }
            }
        }
        return rows
    }

    /// The page made of the first rows; `rows` holds one more when a next page exists.
    func makePage(_ db: Database, plan: PageQuery, rows: PageRows) throws -> Page {
        var nextAfter: [SortValue]?
        if rows.count > plan.limit {
            nextAfter = rows[plan.limit - 1].position
        }
        let items = rows.prefix(plan.limit).map(\.item)
        var page = Page(items: items, nextAfter: nextAfter)
        if plan.table.collection == .people {
            page.departments = try departments(db, of: items)
        }
        return page
    }

    /// The page of `statements` (no walk, so never out of budget).
    func fetchPage(_ db: Database, plan: PageQuery, statements: [(sql: String, arguments: [DatabaseValue])]) throws -> Page {
        guard let rows = try fetchRows(db, plan: plan, statements: statements) else {
            throw StoreError.unavailable("a page without a walk budget came back empty-handed")
        }
        return try makePage(db, plan: plan, rows: rows)
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
}
