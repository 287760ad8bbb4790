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
        let title: String?
        let subtitle: String?
    }

    private(set) var entries: [Entry] = []

    var count: Int { entries.count }

    func add(_ table: CatalogTable, pk: Int64, title: String?, subtitle: String?) {
        guard table.searchTable != nil else { return }
        entries.append(Entry(table: table, removes: false, pk: pk, title: title, subtitle: subtitle))
    }

    func remove(_ table: CatalogTable, pk: Int64, title: String?, subtitle: String?) {
        guard table.searchTable != nil else { return }
        entries.append(Entry(table: table, removes: true, pk: pk, title: title, subtitle: subtitle))
    }

    /// Forgets the entries recorded since `mark` (a `count` read before a write that failed).
    func discard(from mark: Int) {
        entries.removeSubrange(min(mark, entries.count)...)
    }

    /// Applies the entries in the order they were recorded, then records the grams of the added
    /// texts and the 3- and 4-character grams of the added subtitles, those `known` does not
    /// hold. Returns the grams recorded, per table: known once the transaction commits.
    @discardableResult
    func apply(_ db: Database, known: KnownGrams = KnownGrams()) throws -> [String: KnownGrams.Sets] {
        var batches: [String: GramBatch] = [:]
        for entry in entries {
            guard let sql = entry.removes ? entry.table.searchDeleteSQL : entry.table.searchInsertSQL else { continue }
            try db.cachedStatement(sql: sql).execute(arguments: [entry.pk, entry.title, entry.subtitle])
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
