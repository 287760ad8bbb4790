import GRDB

/// A search plan for an order by the title whose titles repeat: a list of a few hundred
/// product names over a million items holds each title in a run of thousands of rows, and the
/// matches of a word ("bottle", in 20 of 481 names) cluster in a few runs far apart. A walk of
/// the order's index reads every row of every run before them (46,000 entries for page 1 of
/// "bottle"); FTS5 reads every match (42,000) to sort them. Both cost 15–20 ms.
///
/// When no subtitle can contain the text (`SubtitleGrams`), a row matches exactly when its
/// title does, so a whole run matches or none of it: the matching titles come from the
/// collection's distinct titles (`TitleList`, kept per version), and only their runs are read,
/// from the position on. A short walk of the index comes first: it fills the page when
/// matches are spread, and says whether titles repeat at all.
extension CatalogStore {
    /// The page's keys from a walk, or from the runs of matching titles; false (plan unchanged)
    /// when neither decided: titles that do not repeat, a subtitle that may match, a filtered
    /// list, or more than `groups` distinct titles.
    func titleGroupPlan(_ text: String, in plan: inout CatalogPageQuery, _ db: Database) throws -> Bool {
        guard let column = plan.titleOrderColumn, plan.conditions.isEmpty else { return false }
        let limits = options.search
        // The walk: every index entry in order, its title compared with the previous one's.
        var found: [Int64] = []
        var read = 0
        var runs = 0
        var previous: [UInt8] = []
        let walk = SearchWalk(text: text, budget: limits.titleWalk)
        for (sql, arguments) in plan.seekStatements(selecting: "t.pk, t.\(CatalogTable.quote(column)), t.subtitle_key")
        where found.count <= plan.limit {
            try db.each(sql, arguments + [(walk.budget - read).databaseValue]) { row in
                read += 1
                let repeated = row.withText(1) { $0.map { previous.elementsEqual($0) } ?? false }
                if !repeated {
                    runs += 1
                    previous = row.withText(1) { $0.map(Array.init) } ?? []
                }
                if walk.matches(row, titleColumn: 1) { found.append(row.integer(0) ?? 0) }
                return found.count <= plan.limit
            }
            if read >= walk.budget { break }
        }
        if found.count > plan.limit || read < walk.budget {
            plan.addKeys(found)
            return true
        }
        guard read >= runs * limits.groupRows, try !SubtitleGrams.mayContain(text, table: plan.table, db),
            let list = try titleList(plan.table, column: column, db)
        else { return false }
        // The runs of the matching titles from the position's on; the position keeps the
        // first run's rows before it out.
        found = []
        var matched: [String] = []
        let position = plan.after?.first.flatMap(String.fromDatabaseValue)
        let pairs = TitleList.pairs(text)
        for index in list.indices(from: position, descending: plan.keys[0].descending) where found.count <= plan.limit {
            let title = list.titles[index]
            guard list.mayContain(at: index, pairs: pairs), walk.matches(title: title) else { continue }
            let before = found.count
            for (sql, arguments) in Self.run(of: title, column: column, in: plan).seekStatements(selecting: "t.pk") where found.count <= plan.limit {
                try db.each(sql, arguments + [(plan.limit + 1 - found.count).databaseValue]) { row in
                    found.append(row.integer(0) ?? 0)
                    return true
                }
            }
            if found.count > before { matched.append(title) }
        }
        // A page within one run (a run is often thousands of rows) reads it in the index's
        // order; one across runs reads its rows by key and sorts them.
        if matched.count == 1 {
            plan = Self.run(of: matched[0], column: column, in: plan)
        } else {
            plan.addKeys(found)
        }
        return true
    }

    /// `plan` restricted to the rows of one title.
    private static func run(of title: String, column: String, in plan: CatalogPageQuery) -> CatalogPageQuery {
        var run = plan
        run.add("t.\(CatalogTable.quote(column)) = ?", [title.databaseValue])
        return run
    }

    /// The collection's distinct titles at the version `db` reads: the kept list, brought up to
    /// that version with the titles of the items changed since when the change log still holds
    /// them all, else read again. Nil when there are more than `groups`: then not read again
    /// for `titleListRetry`, whatever the version.
    private func titleList(_ table: CatalogTable, column: String, _ db: Database) throws -> TitleList? {
        let name = table.collection.name
        let version = try ChangeLog.counter(db, "version.\(name)")
        let kept = titleLists.withLock { $0[name] }
        if let kept, kept.version == version { return kept.list }
        if let kept, kept.list == nil, kept.read.duration(to: .now) < Self.titleListRetry { return nil }
        var list: TitleList?
        if let kept, var known = kept.list, kept.version < version, try ChangeLog.prunedThrough(db) <= kept.version,
            let titles = try Self.changedTitles(table, column: column, since: kept.version, db)
        {
            known.add(titles)
            list = known.titles.count <= options.search.groups ? known : nil
        } else {
            list = try TitleList.read(table, column: column, limit: options.search.groups, db)
        }
        // A snapshot older than the kept list reads its own and leaves the kept one.
        if kept.map({ $0.version < version }) ?? true {
            titleLists.withLock { $0[name] = (version, list, .now) }
        }
        return list
    }

    /// How long a collection with too many titles for a list is not looked at again.
    static let titleListRetry = Duration.seconds(600)

    /// The titles of the items of `table` changed after `sequence` (the deleted have none);
    /// nil when more than 10,000 changes were made since (then the list is read again).
    private static func changedTitles(_ table: CatalogTable, column: String, since sequence: Int64, _ db: Database) throws -> [String]? {
        let name = table.collection.name
        let changes =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM changes WHERE collection = ? AND seq > ? LIMIT 10001)"),
                arguments: [name, sequence]) ?? 0
        guard changes <= 10_000 else { return nil }
        return try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT t.\(CatalogTable.quote(column)) FROM changes AS c JOIN \(CatalogTable.quote(table.name)) AS t ON t.id = c.item_id
                    WHERE c.collection = ? AND c.seq > ?
                    """), arguments: [name, sequence])
    }
}
