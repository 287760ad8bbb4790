import Foundation
import GRDB
import Testing

@testable import Storage

/// The writer's statements bind and step GRDB's prepared statements themselves: every kind of
/// value binds as it is, failures come back as GRDB's errors with their extended code, and a
/// statement that failed runs again cleanly.
@Suite("Writes on GRDB's connection without GRDB's arguments")
struct SQLConnectionTests {
    /// A value, and its storage class and bytes as SQLite keeps them (`hex` of the value).
    static let values: [(DatabaseValue, String, String)] = [
        (.null, "null", ""), (0.databaseValue, "integer", "30"), (Int64.min.databaseValue, "integer", "2D39323233333732303336383534373735383038"),
        (2.5.databaseValue, "real", "322E35"), ("".databaseValue, "text", ""),
        ("Grüße 東".databaseValue, "text", "4772C3BC C39F65 20E69DB1".replacingOccurrences(of: " ", with: "")),
        ("a\u{0}b".databaseValue, "text", "610062"), (Data().databaseValue, "blob", ""), (Data([0, 1, 255]).databaseValue, "blob", "0001FF"),
    ]

    @Test(arguments: values)
    func everyValueIsStoredAsItIsBound(_ value: DatabaseValue, type: String, hex: String) throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value)")
            let id = try #require(try db.insert("INSERT INTO t(value) VALUES (?)", [value], returning: "id"))
            let stored = try #require(
                try Row.fetchOne(db, sql: "SELECT typeof(value) AS type, hex(value) AS hex FROM t WHERE id = ?", arguments: [id]))
            #expect(stored["type"] as String? == type)
            #expect(stored["hex"] as String? == hex)
            #expect(try db.run("UPDATE t SET value = ? WHERE id = ?", [value, id.databaseValue]) == 1)
            #expect(try db.run("UPDATE t SET value = ? WHERE id = ?", [value, (id + 1).databaseValue]) == 0)
        }
    }

    @Test func failuresKeepTheirExtendedCodeAndTheStatementRunsAgain() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
            let insert = "INSERT INTO t(name) VALUES (?)"
            #expect(try db.insert(insert, ["a".databaseValue], returning: "id") == 1)
            let unique = try #require(throws: DatabaseError.self) { try db.insert(insert, ["a".databaseValue], returning: "id") }
            #expect(unique.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
            #expect(unique.sql == insert)
            let notNull = try #require(throws: DatabaseError.self) { try db.run(insert, [.null]) }
            #expect(notNull.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
            let range = try #require(throws: DatabaseError.self) { try db.run(insert, ["b".databaseValue, "c".databaseValue]) }
            #expect(range.resultCode == .SQLITE_RANGE)
            #expect(try db.insert(insert, ["b".databaseValue], returning: "id") == 2)
            let ignored = "INSERT INTO t(name) VALUES (?) ON CONFLICT (name) DO NOTHING"
            #expect(try db.insert(ignored, ["b".databaseValue], returning: "id") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
        }
    }
}
