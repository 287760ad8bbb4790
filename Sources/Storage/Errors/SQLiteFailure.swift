/// Why SQLite failed: its extended result code and message, as the store's connections (GRDB's
/// and its own readers) received them.
///
/// The extended code is kept whole (`SQLITE_BUSY_RECOVERY` 261, `SQLITE_CONSTRAINT_UNIQUE` 2067):
/// whether the failure may pass depends on its primary code, its low byte.
/// https://www.sqlite.org/rescode.html
public struct SQLiteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var extendedResultCode: Int32
    /// SQLite's message: for logs only (it may name tables, columns or paths).
    public var message: String

    public init(extendedResultCode: Int32, message: String) {
        self.extendedResultCode = extendedResultCode
        self.message = message
    }

    /// The primary result code (`SQLITE_BUSY` 5 for `SQLITE_BUSY_RECOVERY` 261).
    public var primaryResultCode: Int32 { extendedResultCode & 0xFF }

    /// Whether trying again later may succeed: the primary codes that describe the moment, not
    /// the data or the code (BUSY, LOCKED, NOMEM, READONLY, INTERRUPT, IOERR, FULL, CANTOPEN, PROTOCOL).
    public var isTransient: Bool { Self.transientPrimaryCodes.contains(primaryResultCode) }

    static let transientPrimaryCodes: Set<Int32> = [5, 6, 7, 8, 9, 10, 13, 14, 15]

    public var description: String { "SQLite \(extendedResultCode): \(message)" }
}
