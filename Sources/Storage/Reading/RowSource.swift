import GRDB

/// What a read steps its statements on: the store's own connections (`ReaderConnection`), or
/// GRDB's, where a search plans its page with GRDB's API.
protocol RowSource {
    /// Binds `arguments` to `sql` and calls `body` with each row until it answers false or the
    /// rows end.
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws
}

extension ReaderConnection: RowSource {}

extension Database: RowSource {
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        let statement = try cachedStatement(sql: sql)
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(values: arguments))
        let row = StatementRow(statement)
        // The cursor resets the statement when it goes: rows are read while it lives.
        try withExtendedLifetime(cursor) {
            while try cursor.next() != nil {
                if try !body(row) { return }
            }
        }
    }
}
