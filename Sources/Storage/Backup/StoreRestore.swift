import Domain
import Foundation
import GRDB

/// `rowserver restore`: puts a backup's contents back into a store's file, while its server
/// may be running.
///
/// The backup is copied aside, checked and opened as a store of the served definition (which
/// migrates it, or refuses an incompatible one); then one write transaction on the live file
/// replaces every table's rows with the copy's. The server sees one commit (`CommitCounter`),
/// never a half-restored file, and reads its versions again.
///
/// Numbers are never handed out twice: inside that transaction, holding the write lock, every
/// collection's version, the change log's sequence and its pruning mark move to one past the
/// largest number the live file or the backup ever issued. So every list tag, cache key and
/// feed token issued before the restore is unmatched after it (a token older than the mark is
/// `CHANGES_EXPIRED`, and its client reloads), and an item's version still names one content.
/// Items keep the versions the backup recorded: a client's detail tag from the backup's time
/// still describes the restored item.
///
/// API keys are kept as the live file has them (a key revoked after the backup stays revoked);
/// keys only the backup has are added. Idempotency records come from the backup, as the writes
/// they describe do.
public enum StoreRestore {
    /// What a restore did.
    public struct Summary: Sendable, Equatable {
        /// Items restored, all collections together.
        public var items: Int
        /// The number every collection's version (and the feed) starts from.
        public var sequence: Int64
    }

    public static func restore(from backup: String, into path: String, catalog: Catalog) throws(StoreError) -> Summary {
        let copy = path + ".restoring-\(getpid())"
        defer { StoreBackup.removeDatabaseFiles(copy) }
        guard FileManager.default.fileExists(atPath: backup) else { throw StoreError.unavailable("no backup at \(backup)") }
        _ = try StoreBackup.backup(from: backup, to: copy)
        // Migrated to the served definition, or refused with what to do: the live file is untouched.
        try CatalogStore(path: copy, catalog: catalog).close()
        // The live file exists with the same tables (a running server has made them already).
        try CatalogStore(path: path, catalog: catalog).close()
        return try StoreError.catching {
            var configuration = Configuration()
            // Rows go in table by table; references are whole again once every table is.
            configuration.foreignKeysEnabled = false
            configuration.busyMode = .timeout(30)
            let live = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? live.close() }
            var summary = Summary(items: 0, sequence: 0)
            try live.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS restored", arguments: [copy])
                defer { try? db.execute(sql: "DETACH DATABASE restored") }
                try db.inTransaction(.immediate) {
                    summary = try replace(db, catalog: catalog)
                    return .commit
                }
            }
            return summary
        }
    }

    /// Replaces the live (`main`) tables' rows with the attached copy's (`restored`), in the
    /// caller's write transaction.
    static func replace(_ db: Database, catalog: Catalog) throws -> Summary {
        let sequence = max(try largestIssued(db, schema: "main"), try largestIssued(db, schema: "restored")) + 1
        let restoredTables = Set(try tables(db, schema: "restored"))
        // Tables of a backup from before the title order (`TitleOrder`): their rows are numbered here.
        var unnumbered = Set<String>()
        for name in try tables(db, schema: "main") {
            let table = CatalogTable.quote(name)
            var columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'main')", arguments: [name])
            var missing = Set(columns).subtracting(
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, 'restored')", arguments: [name]))
            if missing.remove("ord") != nil {
                columns.removeAll { $0 == "ord" }
                unnumbered.insert(name)
            }
            guard restoredTables.contains(name), missing.isEmpty else {
                throw StoreError.incompatibleDefinition(
                    "the backup has no \(restoredTables.contains(name) ? "column \(missing.sorted()) of " : "")table \(name)")
            }
            let list = columns.map(CatalogTable.quote).joined(separator: ", ")
            if name == "api_keys" {
                try db.execute(sql: "INSERT OR IGNORE INTO main.\(table) (\(list)) SELECT \(list) FROM restored.\(table)")
                continue
            }
            try db.execute(sql: "DELETE FROM main.\(table)")
            try db.execute(sql: "INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM restored.\(table)")
        }
        var items = 0
        for collection in catalog.collections {
            let table = CatalogTable(collection, ordered: true)
            items += try Int.fetchOne(db, sql: "SELECT count(*) FROM main.\(CatalogTable.quote(table.name))") ?? 0
            if table.ordered, unnumbered.contains(table.name) { try TitleOrder.numberAll(table, db) }
            // External-content search tables index the rows just replaced.
            if let search = table.searchTable.map(CatalogTable.quote) {
                try db.execute(sql: "INSERT INTO main.\(search) (\(search)) VALUES ('rebuild')")
            }
            try ChangeLog.setCounter(db, "version.\(collection.name)", sequence)
        }
        try ChangeLog.setCounter(db, "pruned_through", sequence)
        try db.execute(sql: "DELETE FROM main.sqlite_sequence WHERE name = 'changes'")
        try db.execute(sql: "INSERT INTO main.sqlite_sequence (name, seq) VALUES ('changes', ?)", arguments: [sequence])
        return Summary(items: items, sequence: sequence)
    }

    /// The ordinary tables of `schema`, but SQLite's own (its search tables' shadow tables are
    /// not ordinary: they are rebuilt).
    static func tables(_ db: Database, schema: String) throws -> [String] {
        try Row.fetchAll(db, sql: "PRAGMA \(schema).table_list").compactMap { row -> String? in
            let name: String = row["name"]
            let type: String = row["type"]
            return type == "table" && !name.hasPrefix("sqlite_") ? name : nil
        }.sorted()
    }

    /// The largest number `schema`'s store ever handed out: its change log's sequence, and its
    /// counters (collection versions, the pruning mark).
    static func largestIssued(_ db: Database, schema: String) throws -> Int64 {
        let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM \(schema).sqlite_sequence WHERE name = 'changes'") ?? 0
        let counters = try Int64.fetchOne(db, sql: "SELECT max(value) FROM \(schema).store_counters") ?? 0
        return max(sequence, counters)
    }
}
