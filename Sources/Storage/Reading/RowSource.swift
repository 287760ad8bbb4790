import GRDB

/// What a read steps its statements on: the store's own connections (`ReaderConnection`), or
/// GRDB's, where a search plans its page with GRDB's API.
protocol RowSource {
    /// Binds `arguments` to `sql` and calls `body` with each row until it answers false or the
    /// rows end.
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws
}

extension RowSource {
    /// What `read` makes of the first row; nil when there is no row.
    func first<T>(_ sql: String, _ arguments: [DatabaseValue], _ read: (StatementRow) throws -> T?) throws -> T? {
        var found: T?
        try each(sql, arguments) { row in
            found = try read(row)
            return false
        }
        return found
    }

    /// What `read` makes of every row, leaving out the rows it makes nothing of.
    func all<T>(_ sql: String, _ arguments: [DatabaseValue], _ read: (StatementRow) throws -> T?) throws -> [T] {
        var found: [T] = []
        try each(sql, arguments) { row in
            if let value = try read(row) { found.append(value) }
            return true
        }
        return found
    }

    /// The first column of the first row as an integer; nil when there is no row or it is NULL.
    func integer(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int64? {
        try first(sql, arguments) { $0.integer(0) }
    }
}

extension ReaderConnection: RowSource {}

extension Database: RowSource {
    /// Binds and steps GRDB's statement itself (`step(_:_:each:)`), as the writes do.
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        try step(cachedStatement(sql: sql), arguments, each: body)
    }
}
