import Foundation
import GRDB
import Testing

@testable import Storage

/// SQLite keeps no memory statistics in a process that links Storage: the setting is made as the
/// process loads, before any test (or server) opens a connection, so nothing has to come first.
@Suite("SQLite's process-wide settings")
struct SQLiteProcessTests {
    @Test func memoryStatisticsAreOffFromTheStart() throws {
        #expect(SQLiteProcess.memoryStatisticsAreOff)
        // With statistics off SQLite counts nothing, however much it allocates.
        let queue = try DatabaseQueue()
        let total = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t(v TEXT)")
            for index in 0..<200 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [String(repeating: "x", count: index * 10)]) }
            return try Int.fetchOne(db, sql: "SELECT sum(length(v)) FROM t") ?? 0
        }
        #expect(total == 199_000)
        #expect(SQLiteProcess.memoryUsed == 0)
    }
}
