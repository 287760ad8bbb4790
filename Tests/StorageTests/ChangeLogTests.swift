import Domain
import Testing

@testable import Storage

/// The change feed: commit order, current items, limits and expiry.
@Suite struct ChangeLogTests {
    @Test func changesArriveInCommitOrderWithCurrentItems() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(seed: true)
        let start = try store.latestSequence()
        var lamp = Fixtures.product("Lamp")
        let chair = Fixtures.product("Chair")
        let doomed = Fixtures.product("Doomed")
        _ = try await store.insert(.product(lamp))
        _ = try await store.insert(.product(chair))
        _ = try await store.insert(.department(Fixtures.department()))
        _ = try await store.insert(.product(doomed))
        lamp.name = "Lamp II"
        let updated = try await store.update(.product(lamp), ifVersion: nil)
        try await store.delete(.products, id: doomed.id, ifVersion: nil)

        // One entry per item, at its last change, in the order of those changes: the lamp's
        // insert and update read as its update, the doomed product's insert and delete as a delete.
        let batch = try store.changes(.products, after: start, limit: 100)
        #expect(batch.changes.map(\.id) == [chair.id, lamp.id, doomed.id])
        #expect(batch.changes.map(\.operation) == [.insert, .update, .delete])
        #expect(batch.changes.map(\.sequence) == batch.changes.map(\.sequence).sorted())
        #expect(batch.changes.allSatisfy { $0.collection == .products })
        // Items are as they are now; deleted items have none.
        #expect(batch.changes[0].item?.item == .product(chair))
        #expect(batch.changes[1].item == updated)
        #expect(batch.changes[2].item == nil)
        #expect(!batch.hasMore)
        #expect(try batch.resumeAfter == store.latestSequence())
    }

    @Test func limitPagesThroughTheFeed() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        for index in 0..<7 { _ = try await store.insert(.product(Fixtures.product("P\(index)"))) }
        var after: Int64 = 0
        var seen: [Int64] = []
        while true {
            let batch = try store.changes(.products, after: after, limit: 3)
            seen += batch.changes.map(\.sequence)
            after = batch.resumeAfter
            if !batch.hasMore { break }
        }
        #expect(seen == Array(1...7))
        let empty = try store.changes(.products, after: 7, limit: 3)
        #expect(empty.changes.isEmpty && !empty.hasMore && empty.resumeAfter == 7)
    }

    @Test func seededRowsHaveVersionsAndInsertEntries() throws {
        let store = try SharedStores.seeded()
        let first = try store.changes(.products, after: 0, limit: 5)
        #expect(first.changes.map(\.id) == standardDataset.products.prefix(5).map(\.id))
        #expect(first.changes.allSatisfy { $0.operation == .insert && $0.item?.version == $0.sequence })
        #expect(first.hasMore)
    }

    @Test func prunedHistoryExpiresOldTokens() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 10)
        for index in 0..<40 { _ = try await store.insert(.product(Fixtures.product("P\(index)"))) }
        let latest = try store.latestSequence()
        #expect(latest == 40)
        let retained = try store.count(changesIn: .products)
        #expect(retained >= 10 && retained < 40)
        let oldest = latest - Int64(retained) + 1
        #expect(throws: StoreError.changesExpired(oldestRetained: oldest)) { try store.changes(.products, after: 0, limit: 10) }
        #expect(throws: StoreError.changesExpired(oldestRetained: oldest)) { try store.changes(.products, after: oldest - 2, limit: 10) }
        // A token at oldest - 1 has seen everything pruned: it resumes at the oldest entry.
        let resumed = try store.changes(.products, after: oldest - 1, limit: 100)
        #expect(resumed.changes.first?.sequence == oldest)
        #expect(resumed.changes.count == retained)
    }

    @Test func neverPrunedLogNeverExpires() async throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store()
        _ = try await store.insert(.product(Fixtures.product()))
        #expect(try store.changes(.products, after: 0, limit: 10).changes.count == 1)
        #expect(try store.changes(.products, after: -5, limit: 10).changes.count == 1)
    }

    @Test func bulkLoadPrunesToTheRetention() throws {
        let directory = try TemporaryDirectory()
        let store = try directory.store(retention: 10)
        try store.bulkLoad { loader in
            for index in 0..<50 { try loader.insert(.product(Fixtures.product("P\(index)"))) }
        }
        #expect(try store.latestSequence() == 50)
        #expect(try store.version(of: .products) == 50)
        #expect(try store.count(changesIn: .products) == 10)
        #expect(throws: StoreError.changesExpired(oldestRetained: 41)) { try store.changes(.products, after: 39, limit: 10) }
        #expect(try store.changes(.products, after: 40, limit: 100).changes.count == 10)
    }
}
