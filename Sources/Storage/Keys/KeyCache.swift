import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keys read by the server, kept between requests: a lookup through the connection pool costs
/// more than a cached page.
///
/// `keys create` and `keys revoke` run in other processes, so every entry is checked against a
/// stamp of the database taken per lookup, and any change of the stamp empties the cache; the
/// next lookup reads the table again, so a revoked key is refused from the next request on.
/// - A SQLite file's stamp is the database and its write-ahead log's size, modification time and
///   inode (one `stat` each): any commit to the file changes them.
/// - The server's own store stamps with the file's commit counter instead (`CommitCounter`): one
///   memory load. Its catalog writer vouches for each of its commits (`vouch(commitAfter:)`),
///   which never touch a key, so a stream of writes does not empty the cache.
/// - A PostgreSQL database's is its listener's generation of key changes, which `keys create` and
///   `keys revoke` move (they notify with the payload `keys`) and commits of items do not; while
///   the listener is not connected there is no stamp, and every lookup reads the table.
///
/// Entries are also dropped after `maximumAge` seconds, in case two commits ever left a stamp as
/// it was.
final class KeyCache: Sendable {
    struct Stamp: Equatable {
        var database = FileStamp()
        var log = FileStamp()
        var generation: UInt64 = 0
        var commits: UInt32 = 0
    }

    struct FileStamp: Equatable {
        var size: Int64 = -1
        var seconds: Int = 0
        var nanoseconds: Int = 0
        var inode: UInt64 = 0
    }

    private struct State {
        var stamp: Stamp?
        var entries: [String: (record: APIKeyRecord?, time: Double)] = [:]
    }

    /// The database's stamp now; nil when nothing can be vouched for.
    private let currentStamp: @Sendable () -> Stamp?
    private let state = Locked(State())
    let maximumAge: Double
    let maximumEntries: Int

    /// Entries checked against the SQLite file at `databasePath` and its write-ahead log.
    convenience init(databasePath: String, maximumAge: Double = 2, maximumEntries: Int = 10_000) {
        let logPath = databasePath + "-wal"
        self.init(maximumAge: maximumAge, maximumEntries: maximumEntries) {
            Stamp(database: Self.stamp(databasePath), log: Self.stamp(logPath))
        }
    }

    /// Entries checked against the file's commit counter, held by the store that vouches for
    /// its own commits.
    convenience init(commits: CommitCounter, maximumAge: Double = 2, maximumEntries: Int = 10_000) {
        self.init(maximumAge: maximumAge, maximumEntries: maximumEntries) { Stamp(commits: commits.value) }
    }

    /// Entries checked against `generation` (a PostgreSQL listener's; nil: not listening).
    convenience init(generation: @escaping @Sendable () -> UInt64?, maximumAge: Double = 2, maximumEntries: Int = 10_000) {
        self.init(maximumAge: maximumAge, maximumEntries: maximumEntries) { generation().map { Stamp(generation: $0) } }
    }

    init(maximumAge: Double, maximumEntries: Int, stamp: @escaping @Sendable () -> Stamp?) {
        self.currentStamp = stamp
        self.maximumAge = maximumAge
        self.maximumEntries = maximumEntries
    }

    /// The key `id` as the table holds it now (nil: no such key), reading it with `read` when
    /// the cache cannot vouch for it.
    func key(id: String, read: (String) throws(StoreError) -> APIKeyRecord?) throws(StoreError) -> APIKeyRecord? {
        guard let stamp = currentStamp() else { return try read(id) }
        let now = Date.timeIntervalSinceReferenceDate
        let cached = state.withLock { state -> APIKeyRecord?? in
            if state.stamp != stamp {
                state.entries.removeAll(keepingCapacity: true)
                state.stamp = stamp
                return nil
            }
            guard let entry = state.entries[id], now - entry.time < maximumAge else { return nil }
            return .some(entry.record)
        }
        if let cached { return cached }
        let record = try read(id)
        state.withLock { state in
            // A commit between the stamp and the read: keep nothing, the stamp is already old.
            guard state.stamp == stamp else { return }
            if state.entries.count >= maximumEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[id] = (record, now)
        }
        return record
    }

    /// The commit that moved the commit counter from `before` changed no key (a catalog write,
    /// committed by a writer that held the write lock from `before` on): entries read at
    /// `before` hold after it too. Any other commit in between left the stamp elsewhere, and
    /// the next lookup empties the cache as before. No effect on a cache stamped otherwise.
    func vouch(commitAfter before: UInt32) {
        state.withLock { state in
            guard state.stamp == Stamp(commits: before) else { return }
            state.stamp = Stamp(commits: before &+ 1)
        }
    }

    static func stamp(_ path: String) -> FileStamp {
        var info = stat()
        guard stat(path, &info) == 0 else { return FileStamp() }
        return FileStamp(
            size: Int64(info.st_size), seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, inode: UInt64(info.st_ino))
    }
}
