import GRDB
import GRDBSQLite

/// The current row of a statement that a GRDB cursor has just stepped, read in place through
/// SQLite's C API.
///
/// GRDB's untyped `Row` subscript boxes every column into an existential and casts it back, which
/// cost a page of 50 rows more than the query itself. Here a column is read with the
/// `sqlite3_column_*` call of its storage class, and a value of another class reads as absent,
/// as the cast did. Valid only until the cursor steps again
/// (https://sqlite.org/c3ref/column_blob.html).
struct StatementRow {
    let statement: SQLiteStatement

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    /// The current row of a statement stepped by `ReaderConnection`.
    init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    private func type(_ column: Int) -> Int32 { sqlite3_column_type(statement, Int32(column)) }

    func isNull(_ column: Int) -> Bool { type(column) == SQLITE_NULL }

    /// The column when it holds an integer.
    func integer(_ column: Int) -> Int64? {
        type(column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, Int32(column)) : nil
    }

    /// The column when it holds text.
    func text(_ column: Int) -> String? {
        withText(column) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the column's UTF-8 bytes in place (nil unless it holds text).
    func withText<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        guard type(column) == SQLITE_TEXT, let start = sqlite3_column_text(statement, Int32(column)) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column)))))
    }

    /// A numbers column (`CatalogColumns.numbersBlob`: little-endian doubles, eight bytes each)
    /// read in place; empty unless it holds a blob.
    func doubles(_ column: Int) -> [Double] {
        guard type(column) == SQLITE_BLOB, let start = sqlite3_column_blob(statement, Int32(column)) else { return [] }
        let bytes = UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(statement, Int32(column))))
        return (0..<bytes.count / 8).map { index in
            Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)))
        }
    }
}
