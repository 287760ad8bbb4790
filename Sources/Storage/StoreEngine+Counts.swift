import Domain
import GRDB

/// What a page showed of its list, which a count need not read again: its rows, and whether
/// it is the whole list (the first page, with no next one).
public struct PageProof: Sendable, Hashable {
    public var rows: Int64
    public var whole: Bool
    /// The rows it showed per section id.
    public var sectionRows: [String: Int64]

    public init(rows: Int64, whole: Bool, sectionRows: [String: Int64] = [:]) {
        self.rows = rows
        self.whole = whole
        self.sectionRows = sectionRows
    }
}

extension StoreEngine {
    /// How many rows the list `query` describes holds (its position ignored), and its sections'
    /// (`sections`), read in one snapshot with the list's conditions and its search restricted
    /// to exactly its matches, as its feed reads them. Nil for `.none`. `proof`: what the page
    /// the counts go with showed.
    ///
    /// - A list without conditions holds the collection's rows (`RowCounts`): exact, for no
    ///   read of its rows. A page that is its whole list counted it.
    /// - `exact` counts up to its bound (a section on its own range of the order's index);
    ///   past it, the total is an estimate.
    /// - `estimated` reads a sample of at most `ListEstimate.size` rows and scales it (a
    ///   collection that small is counted instead): what an estimate costs does not depend on
    ///   how rarely the list's conditions hold, where a count's does.
    public func counts(_ query: CatalogQuery, mode: ListCount, sections: SectionsCounted, proof: PageProof?) throws(StoreError) -> ListCounts? {
        guard mode != .none else { return nil }
        // A list of the whole collection, counted as of the newest commit: no read at all.
        if query.conditions.isEmpty, query.parent == nil, query.level == nil, query.ids == nil, CatalogPageQuery.folded(query.search) == nil,
            !query.sections || sections == .none, let rows = rowCounts.kept(query.collection, at: try latestSequence())
        {
            return ListCounts(total: ListTotal(value: rows, exact: true))
        }
        var list = query
        list.after = nil
        return try onListPlan(list) { db, plan, _ in try countRows(db, plan: plan, list: list, mode: mode, sections: sections, proof: proof) }
    }

    /// `counts(…)` on `db`, with `plan` the list's (unpositioned, its search restricted).
    func countRows(
        _ db: any RowSource, plan: CatalogPageQuery, list: CatalogQuery, mode: ListCount, sections: SectionsCounted, proof: PageProof? = nil
    ) throws -> ListCounts {
        if let proof, proof.whole {
            return ListCounts(
                total: ListTotal(value: proof.rows, exact: true), sections: proof.sectionRows.mapValues { ListTotal(value: $0, exact: true) })
        }
        let table = plan.table
        let rows = try rowCounts.rows(of: table, db, latestSQL: Self.latestSQL)
        let sectioned = list.sections && sections != .none
        if plan.conditions.isEmpty && !sectioned { return ListCounts(total: ListTotal(value: rows, exact: true)) }
        // An estimate counts a collection of at most its bound's rows: no more than its sample reads.
        let bound = mode == .estimated && rows > Int64(mode.bound) ? 0 : mode.bound
        var counts = ListCounts(total: ListTotal(value: 0, exact: true))
        var estimate: ListEstimate?
        func estimated() throws -> ListEstimate {
            if let estimate { return estimate }
            let made = try sample(db, plan: plan, bySection: list.sections)
            estimate = made
            return made
        }
        let atLeast = proof?.rows ?? 0
        var shown: [[SortValue]] = []
        if case .shown(let prefixes) = sections { shown = prefixes }
        if bound > 0 && sectioned && sections == .all {
            // One statement counts every section of a list within the bound.
            let (sql, arguments) = plan.sectionCountsStatement(upTo: bound + 1)
            let groups = try db.all(sql, arguments) { row in row.integer(1).map { (row.text(0) ?? "", $0) } }
            let counted = groups.reduce(0) { $0 + $1.1 }
            if counted <= bound {
                counts.total = ListTotal(value: counted, exact: true)
                for (id, rows) in groups { counts.sections[id] = ListTotal(value: rows, exact: true) }
                return counts
            }
            counts.total =
                plan.conditions.isEmpty
                ? ListTotal(value: rows, exact: true) : try Self.total(rows: rows, estimate: estimated(), section: nil, atLeast: counted)
        } else if plan.conditions.isEmpty {
            counts.total = ListTotal(value: rows, exact: true)
        } else if bound > 0 {
            let (sql, arguments) = plan.countStatement(upTo: bound + 1)
            let counted = try db.integer(sql, arguments) ?? 0
            counts.total =
                counted <= bound
                ? ListTotal(value: counted, exact: true) : try Self.total(rows: rows, estimate: estimated(), section: nil, atLeast: counted)
        } else {
            counts.total = try Self.total(rows: rows, estimate: estimated(), section: nil, atLeast: atLeast)
        }
        if sections == .all, counts.sections.isEmpty {
            for (id, _) in try estimated().foundBySection {
                counts.sections[id] = try Self.total(rows: rows, estimate: estimated(), section: id, atLeast: 0)
            }
        }
        for prefix in shown {
            let values = Self.databaseValues(prefix)
            guard values.count == table.sectionColumns.count, case .text(let id)? = prefix.last, counts.sections[id] == nil else { continue }
            var seen = proof?.sectionRows[id] ?? 0
            if bound > 0 {
                let (sql, arguments) = plan.countStatement(upTo: bound + 1, section: values)
                let counted = try db.integer(sql, arguments) ?? 0
                if counted <= bound {
                    counts.sections[id] = ListTotal(value: counted, exact: true)
                    continue
                }
                seen = counted
            }
            // A section's own sample: its rows are rarer than the list's, and read on for.
            let own = try sample(db, plan: plan.restricted(toSection: values), bySection: false)
            counts.sections[id] = Self.total(rows: rows, estimate: own, section: nil, atLeast: seen)
        }
        return counts
    }

    /// The list's (or one section's) rows as `estimate` scales them, never fewer than `atLeast`.
    private static func total(rows: Int64, estimate: ListEstimate, section: String?, atLeast: Int64) -> ListTotal {
        var matched = Double(estimate.matched)
        if let section, estimate.found > 0 { matched *= Double(estimate.foundBySection[section] ?? 0) / Double(estimate.found) }
        let value = ListEstimate.scaled(rows: rows, range: estimate.range, sampled: estimate.sampled, matched: matched, atLeast: atLeast)
        return ListTotal(value: value, exact: false)
    }

    /// A sample of `plan`'s table (`ListEstimate`): runs of its primary key spread from the
    /// smallest to the largest, each read until it holds a few of the list's rows or has read its
    /// share of the sample, in one statement. A list that keeps most rows reads a few rows a run;
    /// a rare one reads on, as its page does to find its rows.
    private func sample(_ db: any RowSource, plan: CatalogPageQuery, bySection: Bool) throws -> ListEstimate {
        let name = CatalogTable.quote(plan.table.name)
        // Two subqueries: SQLite answers a lone min() or max() from the key's ends, both in one select by a scan.
        let ends = "SELECT (SELECT min(pk) FROM \(name)), (SELECT max(pk) FROM \(name))"
        guard let (low, high) = try db.first(ends, [], { row in row.integer(0).map { ($0, row.integer(1) ?? $0) } })
        else { return ListEstimate() }
        let starts = ListEstimate.starts(low: low, high: high)
        let span = ListEstimate.size / Int64(starts.count)
        let (sql, arguments) = plan.sampleStatement(starts: starts, span: span, matches: ListEstimate.matchesPerRun, bySection: bySection)
        var found = Array(repeating: (count: 0, last: Int64(0)), count: starts.count)
        var estimate = ListEstimate(range: high - low + 1)
        try db.each(sql, arguments) { row in
            let run = Int(row.integer(0) ?? 0)
            guard found.indices.contains(run) else { return true }
            found[run] = (found[run].count + 1, max(found[run].last, row.integer(1) ?? 0))
            estimate.foundBySection[row.text(2) ?? "", default: 0] += 1
            estimate.found += 1
            return true
        }
        for (run, start) in starts.enumerated() {
            let count = Int64(found[run].count)
            if count == Int64(ListEstimate.matchesPerRun) {
                // Read until its last row: the last key read is one of the list's by construction,
                // which (k - 1) of (n - 1) leaves out (the negative binomial's unbiased share).
                estimate.matched += count - 1
                estimate.sampled += max(found[run].last - start, 0)
            } else {
                // Its whole span (or to the table's end), whatever it found.
                estimate.matched += count
                estimate.sampled += max(min(start + span, high + 1) - start, 0)
            }
        }
        return estimate
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
