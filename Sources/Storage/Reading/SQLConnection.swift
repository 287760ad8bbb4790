import GRDB
import GRDBSQLite

/// What a write runs its statements on: GRDB's connection to the SQLite file, or a PostgreSQL
/// connection. The SQL is the store's own (`CatalogTable`), written with `?` placeholders and
/// the SQL both databases read; a PostgreSQL connection numbers the placeholders.
protocol SQLConnection: RowSource {
    /// Runs a statement that returns no rows; the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int

    /// Runs an INSERT of one row and answers `column` of it (an integer key the database
    /// assigned: SQLite's rowid, PostgreSQL's identity); nil when it inserted nothing (an
    /// `ON CONFLICT DO NOTHING` that met a conflict).
    func insert(_ sql: String, _ arguments: [DatabaseValue], returning column: String) throws -> Int64?

    /// Runs an INSERT of several rows that answers `id, pk` of each (`CatalogTable.insertNewSQL(rows:)`):
    /// the key the database assigned each row it inserted, by id; a row that met a conflict is
    /// not there.
    func insertRows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String: Int64]

    /// How many rows the connection's statements have inserted, updated or deleted so far: a
    /// write that failed without moving it left nothing to take back (`CatalogWriter.apply`).
    var changedRows: Int { get }

    /// Whether the transaction can go on after a failure: SQLite rolls it back itself on some
    /// (a full disk); PostgreSQL fails it on every failed statement, which a caller of
    /// `changedRows` hears as a failure that is no refusal.
    var isTransactionUsable: Bool { get }

    /// Runs `body` in a savepoint, released when it returns and rolled back when it throws.
    func withSavepoint(_ body: () throws -> Void) throws

    /// `sql`, a SELECT of rows a write goes on to change (`.update`) or relies on (`.share`: a
    /// referenced item), with what locks them until the transaction ends where writers of other
    /// processes run at once (PostgreSQL: `FOR UPDATE`, `FOR SHARE`); as it is where one writer
    /// runs at a time (SQLite).
    func lockingRows(_ sql: String, _ lock: RowLock) -> String
}

/// How a write locks the rows it reads (`SQLConnection.lockingRows`).
enum RowLock {
    /// Rows the write changes or deletes: another writer waits, then reads them as committed.
    case update
    /// A row the write relies on without changing it (the item a reference points to): it is
    /// neither changed nor deleted until the write commits.
    case share
}

extension SQLConnection {
    func insertRows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String: Int64] {
        var keys: [String: Int64] = [:]
        try each(sql, arguments) { row in
            if let id = row.text(0), let pk = row.integer(1) { keys[id] = pk }
            return true
        }
        return keys
    }

    /// The first column of every row, as text.
    func texts(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String] {
        try all(sql, arguments) { $0.text(0) }
    }
}

extension StatementArguments {
    /// Arguments from values already converted. GRDB's initializer for a sequence of concrete
    /// values maps it with a key path, which its unspecialized generic code instantiates on
    /// every call. Its initializer for optional existentials maps with a closure.
    init(values: [DatabaseValue]) {
        self.init(values.map { $0 as (any DatabaseValueConvertible)? })
    }
}

extension Database: SQLConnection {
    func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try step(cachedStatement(sql: sql), arguments)
        return changesCount
    }

    func insert(_ sql: String, _ arguments: [DatabaseValue], returning column: String) throws -> Int64? {
        try step(cachedStatement(sql: sql), arguments)
        return changesCount > 0 ? lastInsertedRowID : nil
    }

    var changedRows: Int { totalChangesCount }

    func lockingRows(_ sql: String, _ lock: RowLock) -> String { sql }

    var isTransactionUsable: Bool { isInsideTransaction }

    func withSavepoint(_ body: () throws -> Void) throws {
        try inSavepoint {
            try body()
            return .commit
        }
    }

    /// Binds and steps GRDB's prepared statement itself: GRDB's `execute(arguments:)` boxes each
    /// value twice on the way (`StatementArguments`) and checks them, on the writer's thread that
    /// every write waits for. The store registers no GRDB transaction observer that the bypassed
    /// bookkeeping would tell; a failure throws GRDB's `DatabaseError`, as `execute` did.
    /// Reads step the same way (`each`): `body` reads each row in place and answers whether to go on.
    func step(_ statement: Statement, _ arguments: [DatabaseValue], each body: (StatementRow) throws -> Bool = { _ in true }) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        defer { sqlite3_reset(handle) }
        var code = SQLiteBinding.bind(arguments, to: handle)
        if code == SQLITE_OK {
            let row = StatementRow(statement)
            repeat {
                code = sqlite3_step(handle)
                if code == SQLITE_ROW, try !body(row) { return }
            } while code == SQLITE_ROW
            if code == SQLITE_DONE { return }
        }
        let connection = sqlite3_db_handle(handle)
        throw DatabaseError(
            resultCode: ResultCode(rawValue: connection.map(sqlite3_extended_errcode) ?? code),
            message: connection.flatMap { sqlite3_errmsg($0).map { String(cString: $0) } },
            sql: statement.sql)
    }
}
