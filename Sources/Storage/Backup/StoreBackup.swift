import Foundation
import GRDB

/// Online copies of a store's file: `rowserver backup` and what `rowserver restore` checks.
public enum StoreBackup {
    /// What a backup wrote.
    public struct Summary: Sendable, Equatable {
        /// The copy's size in bytes.
        public var bytes: Int64
        /// The newest change-log sequence the copy holds: every write acknowledged before the
        /// backup began is at or below it.
        public var latestSequence: Int64
    }

    /// Copies the store at `source` into a new file at `destination`, as of one moment, while
    /// the store's server goes on reading and writing.
    ///
    /// SQLite's backup API (through GRDB) copies every page in one step, inside one read
    /// transaction of the source: the copy is the snapshot of the moment the step began, so it
    /// holds every commit made before, and writers are not held up (write-ahead log). The copy
    /// is written beside `destination`, checked (`quick_check`), made durable, then renamed into
    /// place: a failed or interrupted backup leaves no file that looks like one.
    public static func backup(from source: String, to destination: String) throws(StoreError) -> Summary {
        let partial = destination + ".partial-\(getpid())"
        defer { removeDatabaseFiles(partial) }
        return try StoreError.catching {
            guard FileManager.default.fileExists(atPath: source) else { throw StoreError.unavailable("no database at \(source)") }
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            let reader = try DatabaseQueue(path: source, configuration: configuration)
            let copy = try DatabaseQueue(path: partial)
            try reader.backup(to: copy)
            try reader.close()
            // A rollback-journal file: read-only opens of it (a restore's) need no -wal or -shm beside it.
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            let latest = try copy.read { db in try ChangeLog.latestSequence(db) }
            try check(copy, pragma: "quick_check")
            try copy.close()
            try rename(partial, to: destination)
            let size = (try FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)?.int64Value ?? 0
            return Summary(bytes: size, latestSequence: latest)
        }
    }

    /// Throws unless `PRAGMA <pragma>` (`quick_check`, `integrity_check`) answers "ok".
    static func check(_ queue: DatabaseQueue, pragma: String) throws {
        let found = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA \(pragma)") }
        guard found == ["ok"] else { throw StoreError.invariant("the copy fails \(pragma): \(found.joined(separator: "; "))") }
    }

    /// Renames `path` to `destination` and syncs the folder, so that the new name survives a crash.
    static func rename(_ path: String, to destination: String) throws(StoreError) {
        guard Foundation.rename(path, destination) == 0 else {
            throw StoreError.unavailable("cannot rename \(path) to \(destination): \(String(cString: strerror(errno)))")
        }
        let folder = (destination as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }

    /// Removes a database file and its log and index, where they exist.
    static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
