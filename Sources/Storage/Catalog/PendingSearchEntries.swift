import GRDB

/// The search-index changes of one transaction's writes, applied together after them.
///
/// Each write of a group commit runs in its own savepoint, and FTS5 writes its pending terms
/// out as a new index segment at every savepoint: indexing inside each write made a batch
/// write a tiny segment per insert and merge them. Here a write records
/// its entries (with the texts, since a row can change again before they are applied), a
/// failed write discards its own (`discard(from:)`), and `apply` runs them in order once the
/// writes are done, outside any savepoint, with the grams of the new trigrams (`SearchGrams`)
/// in one statement per collection.
final class PendingSearchEntries {
    struct Entry {
        let table: CatalogTable
        /// Removes the row's entry (its texts as indexed) rather than adding one.
        let removes: Bool
        let pk: Int64
        /// The rowid a removed entry is indexed under, read when the write was made: `pk`, or
        /// the row's `ord` in an ordered table (nil: the row was placed by this apply).
        let key: Int64?
        let title: String?
        let subtitle: String?
    }

    private(set) var entries: [Entry] = []

    var count: Int { entries.count }

    func add(_ table: CatalogTable, pk: Int64, title: String?, subtitle: String?) {
        guard table.searchTable != nil else { return }
        entries.append(Entry(table: table, removes: false, pk: pk, key: nil, title: title, subtitle: subtitle))
    }

    /// `key`: the rowid the entry is indexed under (`CatalogTable.currentRowSQL` reads it).
    func remove(_ table: CatalogTable, pk: Int64, key: Int64?, title: String?, subtitle: String?) {
        guard table.searchTable != nil else { return }
        entries.append(Entry(table: table, removes: true, pk: pk, key: key, title: title, subtitle: subtitle))
    }

    /// Forgets the entries recorded since `mark` (a `count` read before a write that failed).
    func discard(from mark: Int) {
        entries.removeSubrange(min(mark, entries.count)...)
    }

    /// Applies the entries in the order they were recorded, then records the grams of the added
    /// texts that `known` does not hold. Returns the grams recorded, per table: known once the
    /// transaction commits.
    ///
    /// An ordered table's entries (`TitleOrder`) are applied by what they come to: the entries
    /// indexed by earlier commits that are removed, and each row's last added entry when no
    /// removal follows it. Those rows are placed (their `ord`, the entry's rowid, is found now,
    /// after every write of the batch), then every change to the index is made in rowid order:
    /// FTS5 writes out its pending terms as a new segment whenever a rowid comes before the last
    /// one it was given.
    @discardableResult
    func apply(_ db: Database, known: KnownGrams = KnownGrams()) throws -> [String: KnownGrams.Sets] {
        var batches: [String: GramBatch] = [:]
        func learn(_ table: CatalogTable, _ title: String?, _ subtitle: String?) {
            batches[table.name, default: GramBatch(table: table, known: known.tables[table.name] ?? .init())].add(title: title, subtitle: subtitle)
        }
        var ordered: [String: OrderedChanges] = [:]
        for entry in entries {
            if entry.table.ordered {
                ordered[entry.table.name, default: OrderedChanges(table: entry.table)].record(entry)
                continue
            }
            guard let sql = entry.removes ? entry.table.searchDeleteSQL : entry.table.searchInsertSQL else { continue }
            try db.cachedStatement(sql: sql).execute(arguments: [entry.key ?? entry.pk, entry.title, entry.subtitle])
            if !entry.removes { learn(entry.table, entry.title, entry.subtitle) }
        }
        for name in ordered.keys.sorted() {
            guard var changes = ordered[name] else { continue }
            for (title, subtitle) in try changes.apply(db) { learn(changes.table, title, subtitle) }
        }
        var learned: [String: KnownGrams.Sets] = [:]
        for (name, batch) in batches {
            if let sql = batch.table.gramsInsertSQL, !batch.trigrams.isEmpty {
                try db.cachedStatement(sql: sql).execute(arguments: [SearchGrams.jsonArray(batch.trigrams)])
            }
            learned[name] = batch.recorded
        }
        entries.removeAll()
        return learned
    }
}

/// What one apply's entries of an ordered table come to (`PendingSearchEntries.apply`).
struct OrderedChanges {
    let table: CatalogTable
    /// The removed entries indexed by earlier commits: rowid and texts.
    private var removed: [(key: Int64, title: String?, subtitle: String?)] = []
    /// Each row's last added entry, nil once a removal followed it; `rows` keeps their order.
    private var added: [Int64: (title: String?, subtitle: String?)?] = [:]
    private var rows: [Int64] = []

    init(table: CatalogTable) { self.table = table }

    mutating func record(_ entry: PendingSearchEntries.Entry) {
        if entry.removes, let key = entry.key {
            removed.append((key, entry.title, entry.subtitle))
            return
        }
        if added[entry.pk] == nil { rows.append(entry.pk) }
        added[entry.pk] = entry.removes ? .some(nil) : (entry.title, entry.subtitle)
    }

    /// Places the added rows and changes the index in rowid order; returns the added texts.
    mutating func apply(_ db: Database) throws -> [(String?, String?)] {
        guard let insert = table.searchInsertSQL, let delete = table.searchDeleteSQL else { return [] }
        var applied = TitleOrder.Applied()
        var texts: [(String?, String?)] = []
        for pk in rows {
            guard case .some(.some(let entry)) = added[pk], let ord = try TitleOrder.place(pk, in: table, applied: &applied, db) else { continue }
            applied.ords[pk] = ord
            texts.append((entry.title, entry.subtitle))
        }
        var changes = applied.moves
        changes += removed.map { TitleOrder.IndexChange(rowid: $0.key, removes: true, title: $0.title, subtitle: $0.subtitle) }
        for pk in rows {
            guard case .some(.some(let entry)) = added[pk], let ord = applied.ords[pk] else { continue }
            changes.append(TitleOrder.IndexChange(rowid: ord, removes: false, title: entry.title, subtitle: entry.subtitle))
        }
        // A rowid's removal before what takes its place.
        changes.sort { ($0.rowid, $0.removes ? 0 : 1) < ($1.rowid, $1.removes ? 0 : 1) }
        for change in changes {
            try db.cachedStatement(sql: change.removes ? delete : insert).execute(arguments: [change.rowid, change.title, change.subtitle])
        }
        return texts
    }
}
