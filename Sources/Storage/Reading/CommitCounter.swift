import Atomics

/// How many transactions have been committed to the store's file, by any connection of any
/// process: the `iChange` counter of the write-ahead log's index header, read from SQLite's own
/// mapping of the `-shm` file.
///
/// The server keeps each collection's version in memory (list ETags, cache keys, feed tokens).
/// Another process writing the file (`rowserver import`, `rowserver restore`) must not leave them
/// stale, and asking SQLite per request (`PRAGMA data_version` opens a read transaction) costs
/// more than a memory load: a value that differs from the one the versions were read at means
/// a commit happened since.
///
/// The header's layout is SQLite's file format (https://www.sqlite.org/walformat.html, "The
/// WAL-Index Header"): every SQLite version that shares a database reads and writes it so.
/// `iChange` is a native-endian 32-bit counter at byte 8 of the first copy, bumped once per
/// commit (`sqlite3WalFrames`), after the commit's frames are in the log, behind a memory
/// barrier; checkpoints and log restarts leave it as it is.
///
/// The mapping belongs to a connection of its own, kept open (never used to read) so that the
/// region stays mapped; no second descriptor of the `-shm` file is opened, whose `close` would
/// drop the POSIX locks SQLite holds on it.
final class CommitCounter: Sendable {
    private nonisolated(unsafe) let connection: ReaderConnection
    private let counter: UnsafeAtomic<UInt32>

    init(path: String, options: CatalogStore.Options) throws(StoreError) {
        connection = try ReaderConnection(path: path, options: options)
        let header = try connection.walIndex()
        counter = UnsafeAtomic(at: header.advanced(by: 8).assumingMemoryBound(to: UInt32.AtomicRepresentation.self))
    }

    /// The number of commits so far (wrapping at 2³²): equal values, no commit in between.
    var value: UInt32 { counter.load(ordering: .acquiring) }
}
