import Foundation
import GRDB
import Testing

@testable import Storage

/// `StatementRow` reads a column only through the accessor of its storage class; any other class
/// reads as absent, as GRDB's `as? Int64` / `as? String` casts did before it.
@Suite("Columns read in place")
struct StatementRowTests {
    struct Case: Sendable, CustomStringConvertible {
        let literal: String
        let isNull: Bool
        let integer: Int64?
        let text: String?
        let doubles: [Double]
        var description: String { literal }
    }

    static let cases: [Case] = [
        Case(literal: "NULL", isNull: true, integer: nil, text: nil, doubles: []),
        Case(literal: "42", isNull: false, integer: 42, text: nil, doubles: []),
        Case(literal: "-9223372036854775808", isNull: false, integer: Int64.min, text: nil, doubles: []),
        Case(literal: "'42'", isNull: false, integer: nil, text: "42", doubles: []),
        Case(literal: "''", isNull: false, integer: nil, text: "", doubles: []),
        Case(literal: "'Grüße, 東京 👋'", isNull: false, integer: nil, text: "Grüße, 東京 👋", doubles: []),
        Case(literal: "4.5", isNull: false, integer: nil, text: nil, doubles: []),
        Case(literal: "x''", isNull: false, integer: nil, text: nil, doubles: []),
        // 0.5 and -2.0 as little-endian IEEE 754 doubles, then three bytes that make no number.
        Case(literal: "x'000000000000E03F00000000000000C0010203'", isNull: false, integer: nil, text: nil, doubles: [0.5, -2]),
    ]

    @Test(arguments: cases)
    func eachColumnReadsOnlyAsItsStorageClass(_ example: Case) throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT \(example.literal)")
            let cursor = try Row.fetchCursor(statement)
            try withExtendedLifetime(cursor) {
                _ = try #require(try cursor.next())
                let row = StatementRow(statement)
                #expect(row.isNull(0) == example.isNull)
                #expect(row.integer(0) == example.integer)
                #expect(row.text(0) == example.text)
                #expect(row.doubles(0) == example.doubles)
            }
        }
    }

    /// The same answers from a `ReaderConnection`'s row, which reads each column's value object
    /// directly; each column read twice, in both orders, as a page's writer may.
    @Test(arguments: cases)
    func aReaderConnectionsRowReadsTheSame(_ example: Case) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("statement-row-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t(v)") }
        let reader = try ReaderConnection(path: path, options: CatalogStore.Options())
        var rows = 0
        try reader.each("SELECT \(example.literal), \(example.literal)", []) { row in
            rows += 1
            #expect(row.isNull(0) == example.isNull)
            #expect(row.integer(0) == example.integer)
            #expect(row.text(0) == example.text)
            #expect(row.withText(0) { $0.map(Array.init) } == example.text.map { Array($0.utf8) })
            #expect(row.doubles(0) == example.doubles)
            #expect(row.text(1) == example.text)
            #expect(row.integer(1) == example.integer)
            #expect(row.isNull(1) == example.isNull)
            return true
        }
        #expect(rows == 1)
    }
}
