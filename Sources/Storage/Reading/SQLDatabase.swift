import GRDB

/// A database a store runs its transactions on: SQLite through GRDB's pool, or a pool of
/// PostgreSQL connections (`PostgresPool`). What keys and idempotency records need of it.
protocol SQLDatabase: Sendable {
    /// Runs `body` in one read transaction: every statement reads the same snapshot.
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T

    /// Runs `body` in one write transaction, committed when it returns, rolled back when it
    /// throws. Writes are serialized as SQLite serializes them: one writer at a time (across
    /// every instance sharing a PostgreSQL database).
    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T
}

extension DatabasePool: SQLDatabase {
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try read { db in try body(db) }
    }

    func writing<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try write { db in try body(db) }
    }
}
