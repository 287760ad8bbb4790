import CLibPQ

/// The rows (or the command tag) of one successful statement, read in place from libpq's result.
///
/// Every value is in PostgreSQL's text format, as libpq received it: the readers below parse it
/// without copying it into a `String` first, where they can. One class owns the `PGresult` and
/// clears it once (`deinit`). Rows and columns count from 0; an index out of range reads as NULL.
/// https://www.postgresql.org/docs/current/libpq-exec.html#LIBPQ-EXEC-SELECT-INFO
final class PostgresResult {
    private let handle: OpaquePointer

    /// Takes ownership of `handle`, a result whose status is not an error.
    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    var rowCount: Int { Int(PQntuples(handle)) }

    var columnCount: Int { Int(PQnfields(handle)) }

    /// The command tag: `INSERT 0 1`, `COMMIT`, `SELECT 3`, or `ROLLBACK` for a COMMIT of a failed transaction.
    var commandStatus: String { PQcmdStatus(handle).map { String(cString: $0) } ?? "" }

    /// The rows an INSERT, UPDATE, DELETE, MERGE, SELECT, MOVE, FETCH or COPY touched; 0 for other commands.
    var commandTuples: Int {
        guard let tuples = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: tuples)) ?? 0
    }

    /// The rows an INSERT, UPDATE, DELETE or MERGE changed; 0 for every other command. Read
    /// from the tag in place: it is asked of every statement a write runs.
    var changedRows: Int {
        guard let tag = PQcmdStatus(handle) else { return 0 }
        let verbs: [StaticString] = ["INSERT ", "UPDATE ", "DELETE ", "MERGE "]
        return verbs.contains { Self.tag(tag, startsWith: $0) } ? commandTuples : 0
    }

    /// Whether the NUL-terminated `tag` starts with `verb` (a mismatch at its NUL stops the
    /// comparison before it reads past it).
    private static func tag(_ tag: UnsafePointer<CChar>, startsWith verb: StaticString) -> Bool {
        verb.withUTF8Buffer { bytes in
            for (index, byte) in bytes.enumerated() where UInt8(bitPattern: tag[index]) != byte { return false }
            return true
        }
    }

    /// The name of `column`, as the statement's select list gives it.
    func columnName(_ column: Int) -> String? {
        PQfname(handle, Int32(clamping: column)).map { String(cString: $0) }
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(handle, Int32(clamping: row), Int32(clamping: column)) != 0
    }

    /// The value as text; nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        cell(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the value's bytes where libpq keeps them (nil for NULL), without a copy.
    ///
    /// A closure rather than a returned pointer: the bytes live as long as the result, and the
    /// result is kept alive for `body`'s call; after it, Swift may free the result at any moment.
    func withText<R, E: Error>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in try body(cell(row, column)) }
    }

    /// The value of an integer column; nil for NULL. Throws `.invariant` for a value that is no integer.
    func integer(_ row: Int, _ column: Int) throws(StoreError) -> Int64? {
        try read(row, column, as: "an integer", PostgresText.integer)
    }

    /// The value of a `float8` or `float4` column; nil for NULL. Throws `.invariant` for a value that is no number.
    func double(_ row: Int, _ column: Int) throws(StoreError) -> Double? {
        try read(row, column, as: "a floating-point number", PostgresText.double)
    }

    /// The value of a `bool` column; nil for NULL. Throws `.invariant` for a value that is not `t` or `f`.
    func boolean(_ row: Int, _ column: Int) throws(StoreError) -> Bool? {
        try read(row, column, as: "a boolean", PostgresText.boolean)
    }

    /// The value of a `bytea` column, decoded from its hex form; nil for NULL.
    func bytes(_ row: Int, _ column: Int) throws(StoreError) -> [UInt8]? {
        try read(row, column, as: "bytea in hex form", PostgresText.bytes)
    }

    /// Valid while `self` is: inside one of its methods, or `withText`'s body.
    /// NULL is asked only of an empty value (libpq gives NULL as an empty string): two calls a
    /// value rather than three, each checking the row and column again.
    private func cell(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
        let (row, column) = (Int32(clamping: row), Int32(clamping: column))
        guard let value = PQgetvalue(handle, row, column) else { return nil }
        let length = Int(PQgetlength(handle, row, column))
        if length == 0 && PQgetisnull(handle, row, column) != 0 { return nil }
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
    }

    private func read<T>(_ row: Int, _ column: Int, as kind: String, _ parse: (UnsafeBufferPointer<UInt8>) -> T?) throws(StoreError) -> T? {
        guard let bytes = cell(row, column) else { return nil }
        guard let value = parse(bytes) else {
            throw StoreError.invariant("column \(columnName(column) ?? String(column)) of row \(row) holds \(bytes.count) bytes that are not \(kind)")
        }
        return value
    }
}
