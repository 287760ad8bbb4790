import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// A write transaction hands out the change log's sequences itself and writes the entries
/// together at its end: failed writes give theirs back, and the entries written are the ones
/// the transaction kept, in order.
@Suite struct PendingChangesTests {
    static func id(_ number: Int) -> EntityID {
        EntityID(kind: .product, timestampMilliseconds: UInt64(number), randomBits: 7)
    }

    /// Steps: "+c" appends an entry of collection c, "-n" discards from the mark taken before
    /// step n (1-based); then the sequences handed out, the entries kept and the versions.
    static let cases: [(steps: [String], last: Int64, kept: [Int64], versions: [String: Int64])] = [
        ([], 10, [], [:]),
        (["+a", "+a", "+b"], 13, [11, 12, 13], ["a": 12, "b": 13]),
        // A failed middle write's sequence is handed out again to the next one.
        (["+a", "+b", "-2", "+a"], 12, [11, 12], ["a": 12]),
        // A cascade (several entries) taken back whole.
        (["+a", "+b", "+b", "+b", "-2", "+c"], 12, [11, 12], ["a": 11, "c": 12]),
        (["+a", "-1"], 10, [], [:]),
        // Discarding from a mark past the last hands nothing back.
        (["+a", "-2"], 11, [11], ["a": 11]),
    ]

    @Test(arguments: cases)
    func sequencesFollowTheWritesThatKeptThem(_ steps: [String], last: Int64, kept: [Int64], versions: [String: Int64]) {
        let changes = PendingChanges(after: 10)
        var marks: [Int64] = []
        for step in steps {
            marks.append(changes.mark)
            let argument = String(step.dropFirst())
            if step.hasPrefix("+") {
                _ = changes.append(argument, Self.id(marks.count), .insert, author: nil, parent: nil)
            } else if let index = Int(argument) {
                changes.discard(from: marks[index - 1])
            }
        }
        #expect(changes.last == last)
        #expect(changes.entries.map(\.seq) == kept)
        #expect(changes.versions == versions)
        #expect(changes.changed.map(\.sequence) == kept)
    }

    @Test func aBulkLoadsSequencesRecordNoEntries() {
        let changes = PendingChanges(after: 5, recording: false)
        #expect(changes.append("a", Self.id(1), .insert, author: nil, parent: nil) == 6)
        #expect(changes.append("a", Self.id(2), .insert, author: nil, parent: nil) == 7)
        #expect(changes.entries.isEmpty)
        #expect(changes.last == 7)
    }

    /// More entries than one statement takes are written in several, and only those after the
    /// cutoff: a load writes what the retention keeps.
    @Test func entriesAreWrittenInStatementsAfterTheCutoff() throws {
        let queue = try DatabaseQueue()
        let changes = PendingChanges(after: 0)
        let count = PendingChanges.rowsPerStatement * 2 + 7
        for number in 1...count {
            _ = changes.append(
                number % 2 == 0 ? "a" : "b", Self.id(number), number % 3 == 0 ? .delete : .update, author: "key1",
                parent: number % 2 == 0 ? "tkt_\(number / 2)" : nil)
        }
        try queue.write { db in
            try db.execute(
                sql:
                    "CREATE TABLE changes (seq INTEGER PRIMARY KEY, collection TEXT, item_id TEXT, op TEXT, committed_at INTEGER, key_id TEXT, parent_id TEXT)"
            )
            try changes.write(db, now: 42, after: 100)
            let rows = try Row.fetchAll(db, sql: "SELECT seq, collection, item_id, op, committed_at, key_id, parent_id FROM changes ORDER BY seq")
            #expect(rows.count == count - 100)
            #expect(rows.first?["seq"] == 101 as Int64)
            #expect(rows.last?["seq"] == Int64(count))
            let last = try #require(rows.last)
            #expect(last["item_id"] == Self.id(count).rawValue)
            #expect(last["committed_at"] == 42 as Int64)
            #expect(last["key_id"] == "key1")
            // Each entry keeps its own parent (a child collection's), or none.
            #expect(
                rows.allSatisfy { row in
                    (row["seq"] as Int64) % 2 == 0 ? row["parent_id"] == "tkt_\((row["seq"] as Int64) / 2)" : row["parent_id"] == nil as String?
                })
            #expect(rows.allSatisfy { row in (row["seq"] as Int64) % 3 == 0 ? row["op"] == "delete" : row["op"] == "update" })
        }
    }
}
