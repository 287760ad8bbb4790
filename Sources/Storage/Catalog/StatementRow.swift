import GRDB
import GRDBSQLite

/// The current row of a query, read in place: a SQLite statement just stepped (by a GRDB cursor
/// or `ReaderConnection`), or one row of a PostgreSQL result.
///
/// GRDB's untyped `Row` subscript boxes every column into an existential and casts it back,
/// which costs a page more than the query itself. Here a SQLite column is read with the
/// `sqlite3_column_*` call of its storage class, and a value of another class reads as absent,
/// as the cast did; a PostgreSQL column is read from the result's text. Valid only until the
/// SQLite cursor steps again (https://sqlite.org/c3ref/column_blob.html), or while the
/// PostgreSQL result lives.
struct StatementRow {
    private enum Source {
        /// A statement of a GRDB connection, serialized: each `sqlite3_column_*` call holds the
        /// connection's mutex.
        case sqlite(SQLiteStatement)
        /// A statement of a `ReaderConnection`, opened without a mutex: a column's value object
        /// is read directly, one call into SQLite a column where the `sqlite3_column_*` calls of
        /// its type, text and length are three, each entering and leaving the mutex.
        /// Without a mutex, "protected" and "unprotected" values are the same
        /// (https://sqlite.org/c3ref/value.html); the value stays valid as the column does.
        case reader(SQLiteStatement)
        /// Unretained: a row lives within the visit of its result (`PostgresConnection.rows`),
        /// which keeps the result; a retained one cost each copy of a row, and each column read
        /// copies it, a retain and a release (~300 a page of 50).
        case postgres(Unmanaged<PostgresResult>, row: Int)
    }

    private let source: Source
    /// Where this view's column 0 is in the statement's row (`shifted(by:)`).
    private var first = 0

    init(_ statement: Statement) {
        source = .sqlite(statement.sqliteStatement)
    }

    /// The current row of a statement stepped by `ReaderConnection` (opened `SQLITE_OPEN_NOMUTEX`).
    init(reader statement: SQLiteStatement) {
        source = .reader(statement)
    }

    /// Row `row` of a PostgreSQL result.
    init(_ result: PostgresResult, row: Int) {
        source = .postgres(Unmanaged.passUnretained(result), row: row)
    }

    /// The same row with its columns from `offset` on read as columns 0, 1, …: another table's
    /// row selected after this one's (a page's joined section item, `CatalogPageQuery.joined`).
    func shifted(by offset: Int) -> StatementRow {
        var row = self
        row.first += offset
        return row
    }

    func isNull(_ index: Int) -> Bool {
        let column = first + index
        return switch source {
        case .sqlite(let statement): sqlite3_column_type(statement, Int32(column)) == SQLITE_NULL
        case .reader(let statement): sqlite3_value_type(sqlite3_column_value(statement, Int32(column))) == SQLITE_NULL
        case .postgres(let result, let row): result._withUnsafeGuaranteedRef { $0.isNull(row, column) }
        }
    }

    /// The column when it holds an integer.
    func integer(_ index: Int) -> Int64? {
        let column = first + index
        return switch source {
        case .sqlite(let statement):
            sqlite3_column_type(statement, Int32(column)) == SQLITE_INTEGER ? sqlite3_column_int64(statement, Int32(column)) : nil
        case .reader(let statement):
            Self.integer(sqlite3_column_value(statement, Int32(column)))
        case .postgres(let result, let row): result._withUnsafeGuaranteedRef { try? $0.integer(row, column) }
        }
    }

    /// The column when it holds text.
    func text(_ column: Int) -> String? {
        withText(column) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the column's UTF-8 bytes in place (nil unless it holds text).
    func withText<T>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        let column = first + index
        switch source {
        case .sqlite(let statement):
            guard sqlite3_column_type(statement, Int32(column)) == SQLITE_TEXT, let start = sqlite3_column_text(statement, Int32(column)) else {
                return try body(nil)
            }
            return try body(UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column)))))
        case .reader(let statement):
            let value = sqlite3_column_value(statement, Int32(column))
            guard sqlite3_value_type(value) == SQLITE_TEXT, let start = sqlite3_value_text(value) else { return try body(nil) }
            return try body(UnsafeBufferPointer(start: start, count: Int(sqlite3_value_bytes(value))))
        case .postgres(let result, let row):
            return try result._withUnsafeGuaranteedRef { result in try result.withText(row, column) { bytes in try body(bytes) } }
        }
    }

    /// The column's bytes when it holds a blob (SQLite) or bytea (PostgreSQL).
    func bytes(_ index: Int) -> [UInt8]? {
        let column = first + index
        switch source {
        case .sqlite(let statement), .reader(let statement):
            guard sqlite3_column_type(statement, Int32(column)) == SQLITE_BLOB else { return nil }
            guard let start = sqlite3_column_blob(statement, Int32(column)) else { return [] }
            return Array(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column)))))
        case .postgres(let result, let row):
            return result._withUnsafeGuaranteedRef { try? $0.bytes(row, column) }
        }
    }

    /// A numbers column (`CatalogColumns.numbersBlob`: little-endian doubles, eight bytes each)
    /// read in place; empty unless it holds a blob.
    func doubles(_ index: Int) -> [Double] {
        let column = first + index
        switch source {
        case .sqlite(let statement), .reader(let statement):
            guard sqlite3_column_type(statement, Int32(column)) == SQLITE_BLOB, let start = sqlite3_column_blob(statement, Int32(column)) else {
                return []
            }
            return Self.doubles(UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column)))))
        case .postgres(let result, let row):
            guard let bytes = result._withUnsafeGuaranteedRef({ try? $0.bytes(row, column) }) else { return [] }
            return bytes.withUnsafeBytes(Self.doubles)
        }
    }

    private static func integer(_ value: OpaquePointer?) -> Int64? {
        sqlite3_value_type(value) == SQLITE_INTEGER ? sqlite3_value_int64(value) : nil
    }

    private static func doubles(_ bytes: UnsafeRawBufferPointer) -> [Double] {
        (0..<bytes.count / 8).map { index in
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
    }
}
