import GRDB

/// The store's SQL on PostgreSQL: the statements `CatalogTable`, `CatalogPageQuery` and
/// `CatalogWriter` write for both databases, with `?` placeholders numbered (`$1`, `$2`, …) and
/// GRDB's values as PostgreSQL's parameters.
extension PostgresConnection: SQLConnection {
    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        try Self.rows(of: query(sql, arguments.map(Self.parameter), preparing: Self.numbered), body)
    }

    @discardableResult
    func run(_ sql: String, _ arguments: [DatabaseValue]) throws -> Int {
        let result = try query(sql, arguments.map(Self.parameter), preparing: Self.numbered)
        changedRows += result.changedRows
        return result.commandTuples
    }

    static func rows(of result: PostgresResult, _ body: (StatementRow) throws -> Bool) throws {
        for row in 0..<result.rowCount {
            if try !body(StatementRow(result, row: row)) { return }
        }
    }

    func insert(_ sql: String, _ arguments: [DatabaseValue], returning column: String) throws -> Int64? {
        let result = try query(sql + " RETURNING \(column)", arguments.map(Self.parameter), preparing: Self.numbered)
        changedRows += result.changedRows
        if result.rowCount == 0 { return nil }
        guard result.rowCount == 1, let value = try result.integer(0, 0) else {
            throw StoreError.invariant("an insert returned no \(column)")
        }
        return value
    }

    func insertRows(_ sql: String, _ arguments: [DatabaseValue]) throws -> [String: Int64] {
        let result = try query(sql, arguments.map(Self.parameter), preparing: Self.numbered)
        changedRows += result.changedRows
        var keys: [String: Int64] = [:]
        for row in 0..<result.rowCount {
            if let id = result.text(row, 0), let pk = try result.integer(row, 1) { keys[id] = pk }
        }
        return keys
    }

    var isTransactionUsable: Bool { true }

    func lockingRows(_ sql: String, _ lock: RowLock) -> String {
        switch lock {
        case .update: sql + " FOR UPDATE"
        case .share: sql + " FOR SHARE"
        }
    }

    func withSavepoint(_ body: () throws -> Void) throws {
        try query("SAVEPOINT write")
        do {
            try body()
        } catch {
            try query("ROLLBACK TO SAVEPOINT write")
            try query("RELEASE SAVEPOINT write")
            throw error
        }
        try query("RELEASE SAVEPOINT write")
    }

    /// A GRDB value as a PostgreSQL parameter (nil: NULL).
    static func parameter(_ value: DatabaseValue) -> PostgresValue? {
        switch value.storage {
        case .null: nil
        case .int64(let integer): .integer(integer)
        case .double(let double): .double(double)
        case .string(let text): .text(text)
        case .blob(let data): .bytes([UInt8](data))
        }
    }

    /// `sql` with its `?` placeholders numbered, those inside quotes (a string literal, a quoted
    /// name) left as they are.
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var output: [UInt8] = []
        output.reserveCapacity(sql.utf8.count + 16)
        var quote: UInt8?
        var number = 0
        for byte in sql.utf8 {
            if let open = quote {
                if byte == open { quote = nil }
                output.append(byte)
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                output.append(byte)
            } else if byte == UInt8(ascii: "?") {
                number += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(number).utf8)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// A connection whose statements are planned for their values on every run: parsed, planned and
/// run in one round trip as PostgreSQL's unnamed statement, which is never given a generic plan.
///
/// For a search (`LIKE '%text%'` through the trigram indexes), whose best plan depends on its
/// text: a generic plan walks the whole title index for a text that matches nothing, where a
/// plan for the text reads the trigram indexes. Everything else is prepared once (`query`).
struct PostgresPlannedEachTime: RowSource {
    let connection: PostgresConnection

    func each(_ sql: String, _ arguments: [DatabaseValue], _ body: (StatementRow) throws -> Bool) throws {
        try PostgresConnection.rows(of: connection.execute(PostgresConnection.numbered(sql), arguments.map(PostgresConnection.parameter)), body)
    }
}
