import GRDB

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
}

extension SQLConnection {
    /// The first column of the first row as an integer; nil when there is no row or it is NULL.
    func integer(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int64? {
        var found: Int64?
        try each(sql, arguments) { row in
            found = row.integer(0)
            return false
        }
        return found
    }

    /// The first column of every row, as text.
    func texts(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String] {
        var found: [String] = []
        try each(sql, arguments) { row in
            if let text = row.text(0) { found.append(text) }
            return true
        }
        return found
    }
}

extension StatementArguments {
    /// Arguments from values already converted. GRDB's initializer for a sequence of concrete
    /// values maps it with a key path, which its unspecialized generic code instantiates on
    /// every call: 1.5 % of the server's CPU in the 90/10 mix, most of it on the writer's
    /// thread. Its initializer for optional existentials maps with a closure.
    init(values: [DatabaseValue]) {
        self.init(values.map { $0 as (any DatabaseValueConvertible)? })
    }
}

extension Database: SQLConnection {
    func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        try cachedStatement(sql: sql).execute(arguments: StatementArguments(values: arguments))
        return changesCount
    }

    func insert(_ sql: String, _ arguments: [DatabaseValue], returning column: String) throws -> Int64? {
        try cachedStatement(sql: sql).execute(arguments: StatementArguments(values: arguments))
        return changesCount > 0 ? lastInsertedRowID : nil
    }
}
