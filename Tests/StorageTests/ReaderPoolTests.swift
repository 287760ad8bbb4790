import Foundation
import GRDB
import Testing

@testable import Storage

/// The store's own read connections: values bound as GRDB binds them, a read sees every commit
/// made before it began, connections are reused and never shared, and a closed pool refuses.
@Suite("Read connections")
struct ReaderPoolTests {
    struct Binding: Sendable, CustomStringConvertible {
        let name: String
        let value: DatabaseValue
        let type: String
        /// Bytes, for text and blobs; the value, for numbers.
        let length: Int64
        var description: String { name }
    }

    static let bindings: [Binding] = [
        Binding(name: "null", value: .null, type: "null", length: 0),
        Binding(name: "integer", value: Int64.min.databaseValue, type: "integer", length: 20),
        Binding(name: "double", value: 0.5.databaseValue, type: "real", length: 3),
        Binding(name: "empty text", value: "".databaseValue, type: "text", length: 0),
        Binding(name: "text with NUL", value: "a\u{0}b".databaseValue, type: "text", length: 3),
        Binding(name: "non-ASCII text", value: "Grüße 👋".databaseValue, type: "text", length: 12),
        Binding(name: "empty blob", value: Data().databaseValue, type: "blob", length: 0),
        Binding(name: "blob", value: Data([0, 1, 2]).databaseValue, type: "blob", length: 3),
    ]

    static func file(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path("readers.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE t (value)")
        }
        try queue.close()
        return path
    }

    @Test(arguments: bindings)
    func valuesBindAsGRDBBindsThem(_ binding: Binding) throws {
        let directory = try TemporaryDirectory()
        let pool = ReaderPool(path: try Self.file(directory), options: .init())
        let arguments = [binding.value, binding.value]
        var answer: (type: String?, length: Int64?)?
        try pool.read { connection in
            try connection.each("SELECT typeof(?), length(CAST(? AS BLOB))", arguments) { row in
                answer = (row.text(0), row.integer(1))
                return false
            }
        }
        #expect(answer?.type == binding.type)
        #expect(answer?.length ?? 0 == binding.length)
    }

    @Test func aReadSeesWhatWasCommittedBeforeItBegan() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(directory)
        let pool = ReaderPool(path: path, options: .init())
        func count() throws -> Int64? {
            var count: Int64?
            try pool.read { connection in
                try connection.inTransaction {
                    try connection.each("SELECT count(*) FROM t", []) { row in
                        count = row.integer(0)
                        return false
                    }
                }
            }
            return count
        }
        #expect(try count() == 0)
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1), (2)") }
        // The same (reused) connection, a new snapshot.
        #expect(try count() == 2)
    }

    @Test func connectionsAreReusedAndNeverShared() throws {
        let directory = try TemporaryDirectory()
        let pool = ReaderPool(path: try Self.file(directory), options: .init())
        var first: ObjectIdentifier?
        var nested: ObjectIdentifier?
        try pool.read { outer in
            first = ObjectIdentifier(outer)
            try pool.read { inner in nested = ObjectIdentifier(inner) }
        }
        #expect(first != nil && nested != nil && first != nested)
        var again: ObjectIdentifier?
        try pool.read { again = ObjectIdentifier($0) }
        #expect(again == first || again == nested)
    }

    @Test func aClosedPoolRefusesReads() throws {
        let directory = try TemporaryDirectory()
        let pool = ReaderPool(path: try Self.file(directory), options: .init())
        try pool.read { _ in }
        pool.close()
        #expect(throws: StoreError.unavailable("the store is closed")) { try pool.read { _ in } }
    }

    @Test func aFailingStatementSaysWhy() throws {
        let directory = try TemporaryDirectory()
        let pool = ReaderPool(path: try Self.file(directory), options: .init())
        let error = #expect(throws: StoreError.self) {
            try pool.read { connection in try connection.each("SELECT * FROM missing", []) { _ in true } }
        }
        guard case .sqlite(let failure) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(failure.primaryResultCode == 1)  // SQLITE_ERROR
        #expect(failure.message.contains("no such table"))
    }

    /// Statements are found again by their text, whether the string is the same one or an equal
    /// one built anew, and more statements than the recent ones kept each keep their own.
    @Test func eachStatementAnswersForItsOwnTextWhenManyAlternate() throws {
        let directory = try TemporaryDirectory()
        let pool = ReaderPool(path: try Self.file(directory), options: .init())
        let texts = (0..<9).map { "SELECT \($0) + ?" }
        for round in 0..<3 {
            for (index, text) in texts.enumerated() {
                // Rounds 1 and 2 pass equal strings in new storage, round 0 the same ones.
                let sql = round == 0 ? text : String(decoding: Array(text.utf8), as: UTF8.self)
                var answer: Int64?
                try pool.read { connection in
                    try connection.each(sql, [Int64(round * 100).databaseValue]) { row in
                        answer = row.integer(0)
                        return false
                    }
                }
                #expect(answer == Int64(index + round * 100), "\(sql) in round \(round)")
            }
            // The same string twice in a row, then one of the first.
            for index in [8, 8, 0] {
                var answer: Int64?
                try pool.read { connection in
                    try connection.each(texts[index], [Int64(1).databaseValue]) { row in
                        answer = row.integer(0)
                        return false
                    }
                }
                #expect(answer == Int64(index + 1))
            }
        }
    }
}
