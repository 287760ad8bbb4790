import GRDB
import GRDBSQLite

/// One read-only SQLite connection of the store's own, with its prepared statements, for the
/// reads every uncached page and detail makes.
///
/// GRDB's `DatabasePool.read` costs as much as reading a page's rows beside the query (the pool's
/// lock and key paths, a `dispatch_sync` onto the reader's queue, `BEGIN` and `COMMIT` parsed
/// per read, a cursor and arguments boxed per statement; issue #16). Here a read takes a
/// connection from a stack, binds, steps, and puts it back.
///
/// One class owns the handle and each statement and frees them once (`deinit`). Not Sendable:
/// a connection is used by one thread at a time, handed over through `ReaderPool`'s lock.
final class ReaderConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// The last few statements used, found by `==` before the dictionary: a plan passes the
    /// same string each time, which `==` recognizes by its storage, while hashing reads all of
    /// it. Holds statements of `statements`, never its own.
    private var recent: [(sql: String, statement: OpaquePointer)] = []
    private var recentNext = 0
    private static let recentCount = 4

    /// Opens `path` read-only, set up as the store's GRDB connections are (cache, mmap, busy timeout).
    init(path: String, options: CatalogStore.Options) throws(StoreError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard let opened else { throw StoreError.sqlite(SQLiteFailure(extendedResultCode: code, message: "cannot open \(path) to read")) }
        handle = opened
        guard code == SQLITE_OK else {
            let error = Self.error(handle, code)
            sqlite3_close_v2(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, Int32(min(options.busyTimeout * 1000, Double(Int32.max))))
        do {
            try execute("PRAGMA cache_size = -\(options.cacheSizeKiB)")
            try execute("PRAGMA temp_store = MEMORY")
            try execute("PRAGMA mmap_size = \(options.mmapSizeMiB * 1_048_576)")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `body` in one read transaction: every statement in it reads the same snapshot.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try step(statement("BEGIN"))
        defer {
            // A read transaction's COMMIT only lets go of the snapshot; should it ever fail, the
            // connection must still not go back to the pool inside a transaction.
            if (try? step(statement("COMMIT"))) == nil { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        }
        return try body()
    }

    /// The first region of the database's write-ahead log index, as SQLite mapped it for this
    /// connection (`xShmMap` of its `-shm` file): mapped while the connection stays open.
    func walIndex() throws(StoreError) -> UnsafeMutableRawPointer {
        // A read opens the connection's write-ahead log and maps the index's first region.
        try StoreError.catching {
            try each("SELECT 1 FROM sqlite_master LIMIT 1", []) { _ in false }
        }
        var file: UnsafeMutablePointer<sqlite3_file>?
        try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file), "its file")
        guard let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2, let map = methods.pointee.xShmMap else {
            throw StoreError.unavailable("the database's file system keeps no write-ahead log index")
        }
        var region: UnsafeMutableRawPointer?
        // Region 0 (32 KiB) exists once the log is open; bExtend 0 maps it without growing the file.
        try check(map(file, 0, 32_768, 0, &region), "its write-ahead log index")
        guard let region else { throw StoreError.unavailable("the database is not in write-ahead log mode") }
        return region
    }

    /// Binds `arguments` to the prepared `sql` and calls `body` with each row until it answers
    /// false or the rows end; the statement is reset after, whatever happened.
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        let statement = try statement(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try check(SQLiteBinding.bind(arguments, to: statement))
        let row = StatementRow(reader: statement)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw Self.error(handle, code) }
            if try !body(row) { return }
        }
    }

    /// The prepared statement of `sql`, prepared once per connection.
    private func statement(_ sql: String) throws -> OpaquePointer {
        for entry in recent where entry.sql == sql { return entry.statement }
        let found: OpaquePointer
        if let statement = statements[sql] {
            found = statement
        } else {
            var prepared: OpaquePointer?
            let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard code == SQLITE_OK, let prepared else { throw Self.error(handle, code) }
            statements[sql] = prepared
            found = prepared
        }
        if recent.count < Self.recentCount {
            recent.append((sql, found))
        } else {
            recent[recentNext] = (sql, found)
            recentNext = (recentNext + 1) % Self.recentCount
        }
        return found
    }

    private func step(_ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw Self.error(handle, code) }
    }

    private func execute(_ sql: String) throws(StoreError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw Self.error(handle, code) }
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw Self.error(handle, code) }
    }

    private func check(_ code: Int32, _ what: String) throws(StoreError) {
        guard code == SQLITE_OK else { throw StoreError.sqlite(SQLiteFailure(extendedResultCode: code, message: "cannot read \(what)")) }
    }

    private static func error(_ handle: OpaquePointer, _ code: Int32) -> StoreError {
        .sqlite(SQLiteFailure(extendedResultCode: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle))))
    }
}
