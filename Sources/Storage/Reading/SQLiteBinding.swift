import GRDB
import GRDBSQLite

/// Binds the store's values to a prepared SQLite statement: shared by the store's own read
/// connections and the writer's statements, which both bind without GRDB's arguments.
enum SQLiteBinding {
    /// Binds each of `arguments` to its `?` in order; the first failing code, or SQLITE_OK.
    static func bind(_ arguments: [DatabaseValue], to statement: OpaquePointer) -> Int32 {
        for (index, argument) in arguments.enumerated() {
            let code = bind(argument, to: statement, at: Int32(index + 1))
            guard code == SQLITE_OK else { return code }
        }
        return SQLITE_OK
    }

    static func bind(_ value: DatabaseValue, to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch value.storage {
        case .null: return sqlite3_bind_null(statement, index)
        case .int64(let integer): return sqlite3_bind_int64(statement, index, integer)
        case .double(let double): return sqlite3_bind_double(statement, index, double)
        case .string(let text):
            var text = text
            // With its length (a NUL inside stays), SQLITE_TRANSIENT: SQLite copies the bytes,
            // which live only in this call; an empty text binds "" (a nil pointer would bind NULL).
            return text.withUTF8 { bytes in
                guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(statement, index, "", 0, transient) }
                return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
                    sqlite3_bind_text(statement, index, chars, Int32(bytes.count), transient)
                }
            }
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
            }
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
