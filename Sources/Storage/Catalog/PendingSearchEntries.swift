import GRDB

/// The search-index changes of one transaction's writes, applied together after them.
///
/// Each write of a group commit runs in its own savepoint, and FTS5 writes its pending terms
/// out as a new index segment at every savepoint: indexing inside each write made a batch of 32
/// inserts write 32 tiny segments and merge them, half of a write's cost. Here a write records
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
    /// texts and the 3- and 4-character grams of the added subtitles, those `known` does not
    /// hold. Returns the grams recorded, per table: known once the transaction commits.
    ///
    /// In an ordered table an added entry first places its row (`TitleOrder.place`: the row's
    /// `ord`, the entry's rowid, is found now, after every write of the batch); a row gone by
    /// then adds nothing, and neither does the removal of what it would have added.
    @discardableResult
    func apply(_ db: Database, known: KnownGrams = KnownGrams()) throws -> [String: KnownGrams.Sets] {
        var batches: [String: GramBatch] = [:]
        var applied: [String: TitleOrder.Applied] = [:]
        // An ordered table's entries indexed by an earlier commit go first: a row placed now may
        // take the ord one of them leaves (its row renamed or deleted), and two entries under
        // one rowid corrupt the index.
        for entry in entries where entry.removes && entry.table.ordered {
            guard let key = entry.key, let sql = entry.table.searchDeleteSQL else { continue }
            try db.cachedStatement(sql: sql).execute(arguments: [key, entry.title, entry.subtitle])
        }
        for entry in entries {
            guard let sql = entry.removes ? entry.table.searchDeleteSQL : entry.table.searchInsertSQL else { continue }
            if entry.removes, entry.table.ordered, entry.key != nil { continue }
            var key = entry.key ?? entry.pk
            if entry.table.ordered {
                let name = entry.table.name
                var rows = applied[name] ?? TitleOrder.Applied()
                defer { applied[name] = rows }
                if entry.removes {
                    guard let ord = entry.key ?? rows.ords[entry.pk] else { continue }
                    key = ord
                    rows.texts[entry.pk] = .some(nil)
                } else {
                    guard let ord = try TitleOrder.place(entry.pk, in: entry.table, applied: &rows, db) else {
                        rows.ords[entry.pk] = nil
                        continue
                    }
                    key = ord
                    rows.ords[entry.pk] = ord
                    rows.texts[entry.pk] = (entry.title, entry.subtitle)
                }
            }
            try db.cachedStatement(sql: sql).execute(arguments: [key, entry.title, entry.subtitle])
            if !entry.removes {
                batches[entry.table.name, default: GramBatch(table: entry.table, known: known.tables[entry.table.name] ?? .init())]
                    .add(title: entry.title, subtitle: entry.subtitle)
            }
        }
        var learned: [String: KnownGrams.Sets] = [:]
        for (name, batch) in batches {
            if let sql = batch.table.gramsInsertSQL, !batch.trigrams.isEmpty {
                try db.cachedStatement(sql: sql).execute(arguments: [SearchGrams.jsonArray(batch.trigrams)])
            }
            if let sql = batch.table.subtitleGramsInsertSQL, !batch.subtitleGrams.isEmpty {
                try db.cachedStatement(sql: sql).execute(arguments: [SearchGrams.jsonArray(batch.subtitleGrams)])
            }
            learned[name] = batch.recorded
        }
        entries.removeAll()
        return learned
    }
}
