import DemoData
import Domain
import GRDB
import Testing

@testable import Storage

/// A batch of writes runs without a savepoint per write; a write that fails after it wrote
/// sends the batch back to run again with one, so the failure still leaves no trace.
@Suite struct WriteBatchTests {
    /// An insert of an existing id took a sequence before its row found the id taken: the
    /// sequence must go back with the refusal, while the batch's other inserts commit.
    @Test func anInsertOfAnExistingIDIsTakenBackAloneFromItsBatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        let first = Fixtures.product("Lamp original")
        let inserted = try await store.insert(.product(first))
        var writes: [Product] = (0..<40).map { Fixtures.product("Lamp \($0)") }
        for index in 0..<10 {
            var again = first
            again.name = "Lamp again \(index)"
            writes.insert(again, at: index * 4 + 1)
        }
        let results = await GroupCommitTests.concurrently(writes) { product throws(StoreError) in
            try await store.insert(.product(product)).version
        }
        var versions: [Int64] = []
        for (product, result) in results {
            if product.id == first.id {
                #expect(throws: StoreError.versionMismatch(current: inserted.version)) { try result.get() }
            } else {
                versions.append(try result.get())
            }
        }
        #expect(versions.count == 40)
        // Dense: the refused inserts' change entries went with them.
        #expect(Set(versions) == Set(2...41))
        #expect(try store.latestSequence() == 41)
        #expect(try store.count(.products) == 41)
        #expect(try store.item(.products, id: first.id) == inserted)
        #expect(store.writeCounters.failedWrites == 10)
        let queue = try DatabaseQueue(path: directory.path("test.sqlite"))
        let entries = try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM changes WHERE item_id = ?", arguments: [first.id.rawValue])
        }
        #expect(entries == 1)
        try store.store.applySearchBacklog()
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO items_products_search (items_products_search, rank) VALUES ('integrity-check', 1)")
        }
    }
}
