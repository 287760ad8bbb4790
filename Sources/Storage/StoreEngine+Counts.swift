import Domain
import GRDB

extension StoreEngine {
    /// How many rows the list `query` describes holds (its position ignored), and its sections'
    /// (`sections`), read in one snapshot with the list's conditions and its search restricted
    /// to exactly its matches, as its feed reads them. Nil for `.none`.
    ///
    /// A list without conditions holds the collection's rows (`RowCounts`): exact, for no read
    /// of its rows. Any other list is counted up to `mode.bound` rows; past it, the total is an
    /// estimate (`ListEstimate`), never less than the rows counted. A section is counted the
    /// same way, on its own range of the order's index.
    public func counts(_ query: CatalogQuery, mode: ListCount, sections: SectionsCounted) throws(StoreError) -> ListCounts? {
        guard mode != .none else { return nil }
        var list = query
        list.after = nil
        return try onListPlan(list) { db, plan, _ in try countRows(db, plan: plan, list: list, mode: mode, sections: sections) }
    }

    /// `counts(…)` on `db`, with `plan` the list's (unpositioned, its search restricted).
    func countRows(_ db: any RowSource, plan: CatalogPageQuery, list: CatalogQuery, mode: ListCount, sections: SectionsCounted) throws -> ListCounts {
        let table = plan.table
        let bound = mode.bound
        let rowsOf = { (name: String) throws -> Int64 in try self.rowCounts.rows(of: try self.table(name), db, latestSQL: Self.latestSQL) }
        let estimate = { (section: String?, counted: Int64) throws -> ListTotal in
            let rows = try rowsOf(table.collection.name)
            let guess = try ListEstimate.rows(list, sectionID: section, in: table.collection, rows: rows, rowsOf: rowsOf)
            return ListTotal(value: max(counted, min(guess, rows)), exact: false)
        }
        var counts = ListCounts(total: ListTotal(value: 0, exact: true))
        var sectionsLeft = sections
        if plan.conditions.isEmpty, !list.sections || sections == .none {
            counts.total = ListTotal(value: try rowsOf(table.collection.name), exact: true)
        } else if list.sections, sections != .none {
            // One statement counts every section of a list within the bound.
            let (sql, arguments) = plan.sectionCountsStatement(upTo: bound + 1)
            let groups = try db.all(sql, arguments) { row in row.integer(1).map { (row.text(0) ?? "", $0) } }
            let counted = groups.reduce(0) { $0 + $1.1 }
            if counted <= bound {
                counts.total = ListTotal(value: counted, exact: true)
                for (id, rows) in groups { counts.sections[id] = ListTotal(value: rows, exact: true) }
                sectionsLeft = .none
            } else {
                counts.total = plan.conditions.isEmpty ? ListTotal(value: try rowsOf(table.collection.name), exact: true) : try estimate(nil, counted)
            }
        } else {
            let (sql, arguments) = plan.countStatement(upTo: bound + 1)
            let counted = try db.integer(sql, arguments) ?? 0
            counts.total = counted <= bound ? ListTotal(value: counted, exact: true) : try estimate(nil, counted)
        }
        guard case .shown(let prefixes) = sectionsLeft else { return counts }
        for prefix in prefixes {
            let values = Self.databaseValues(prefix)
            guard values.count == table.sectionColumns.count, case .text(let id)? = prefix.last, counts.sections[id] == nil else { continue }
            let (sql, arguments) = plan.countStatement(upTo: bound + 1, section: values)
            let counted = try db.integer(sql, arguments) ?? 0
            counts.sections[id] = counted <= bound ? ListTotal(value: counted, exact: true) : try estimate(id, counted)
        }
        return counts
    }

    private static func databaseValues(_ values: [SortValue]) -> [DatabaseValue] {
        values.map { value in
            switch value {
            case .text(let text): text.databaseValue
            case .integer(let integer): integer.databaseValue
            }
        }
    }
}
