import CSQLite
import GRDBSQLite

/// SQLite's process-wide settings, made by `CSQLite` as the process loads (before any connection
/// opens, as `sqlite3_config` requires).
enum SQLiteProcess {
    /// Whether SQLite keeps no memory statistics in this process: with them, every SQLite
    /// allocation takes one process-wide mutex, which request threads reading pages contended on.
    static var memoryStatisticsAreOff: Bool { CSQLite_memory_statistics_off_result() == SQLITE_OK }

    /// The bytes SQLite counts as in use: 0 while it keeps no statistics.
    static var memoryUsed: Int64 { sqlite3_memory_used() }
}
