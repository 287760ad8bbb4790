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
    /// Binds and steps GRDB's statement itself (`step(_:_:each:)`), as the writes do.
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        try step(cachedStatement(sql: sql), arguments, each: body)
    }
}
