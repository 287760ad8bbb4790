import Domain
import Foundation
import Testing

@testable import Storage

/// The `idempotency_keys` table on a real file: reservation, stored answers, another request,
/// release, the applied state written with the write itself, expiry and purge.
@Suite struct IdempotencyStoreTests {
    static let mark = IdempotencyMark(principal: "key1", key: "k")
    static let fingerprint: [UInt8] = Array(repeating: 7, count: 32)
    static let answer = StoredAnswer(
        status: 201, headers: [("Content-Type", "application/json"), ("Location", "/v1/products/prd_1"), ("ETag", #""p1-en""#)],
        body: Array(#"{"id":"prd_1"}"#.utf8))

    @Test func aNewKeyIsReservedAndItsAnswerReplayedOnce() throws {
        let directory = try TemporaryDirectory()
        let keys = try directory.store().store.idempotency
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_000) == .fresh)
        // Still pending (the caller's in-process guard keeps a running request from this).
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_001) == .fresh)
        try keys.complete(Self.mark, answer: Self.answer)
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_002) == .replay(Self.answer))
        #expect(try keys.begin(Self.mark, fingerprint: Array(repeating: 8, count: 32), now: 1_003) == .mismatch)
        // The same key of another API key is another key.
        #expect(try keys.begin(IdempotencyMark(principal: "key2", key: "k"), fingerprint: Self.fingerprint, now: 1_004) == .fresh)
    }

    @Test func releaseForgetsOnlyAKeyWhoseWriteDidNotHappen() async throws {
        let directory = try TemporaryDirectory()
        let demo = try directory.store()
        let keys = demo.store.idempotency
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_000) == .fresh)
        try keys.release(Self.mark)
        #expect(try keys.count() == 0)

        let product = Fixtures.product()
        let applied = IdempotencyMark(principal: "key1", key: "applied")
        #expect(try keys.begin(applied, fingerprint: Self.fingerprint, now: 1_000) == .fresh)
        _ = try await demo.store.insert(StoredItem.product(product).item, into: "products", by: nil, idempotency: applied)
        try keys.release(applied)
        #expect(
            try keys.begin(applied, fingerprint: Self.fingerprint, now: 1_001)
                == .applied(collection: "products", itemID: product.id.rawValue, operation: "insert"))
    }

    @Test func aFailedWriteLeavesItsKeyPending() async throws {
        let directory = try TemporaryDirectory()
        let demo = try directory.store()
        let keys = demo.store.idempotency
        let product = Fixtures.product()
        _ = try await demo.store.insert(StoredItem.product(product).item, into: "products")
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_000) == .fresh)
        // The same id again: the insert fails, and its savepoint takes the mark with it.
        await #expect(throws: StoreError.self) {
            _ = try await demo.store.insert(StoredItem.product(product).item, into: "products", by: nil, idempotency: Self.mark)
        }
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_001) == .fresh)
    }

    @Test func keysExpireAfterTheRetentionAndArePurged() throws {
        let directory = try TemporaryDirectory()
        let keys = try directory.store().store.idempotency
        let day = keys.retention
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_000) == .fresh)
        try keys.complete(Self.mark, answer: Self.answer)
        #expect(try keys.begin(Self.mark, fingerprint: Self.fingerprint, now: 1_000 + day) == .replay(Self.answer))
        // A day and a second later the key is new again, even for another request.
        #expect(try keys.begin(Self.mark, fingerprint: Array(repeating: 9, count: 32), now: 1_001 + day) == .fresh)
        let other = IdempotencyMark(principal: "key1", key: "old")
        #expect(try keys.begin(other, fingerprint: Self.fingerprint, now: 2_000 + day) == .fresh)
        #expect(try keys.count() == 2)
        // Purged, at most once a minute, when a key is begun.
        _ = try keys.begin(IdempotencyMark(principal: "key1", key: "new"), fingerprint: Self.fingerprint, now: 3_000 + 2 * day)
        #expect(try keys.count() == 1)
    }

    @Test(arguments: [
        [(String, String)](),
        [("Content-Type", "application/json")],
        [("Location", "/v1/a:b"), ("ETag", #""x""#), ("Vary", "Accept-Language, Origin")],
    ])
    func headersSurviveTheirStorage(headers: [(String, String)]) {
        let pairs = headers.map { (name: $0.0, value: $0.1) }
        let read = IdempotencyStore.headers(from: IdempotencyStore.text(of: pairs))
        #expect(read.map { [$0.name, $0.value] } == pairs.map { [$0.name, $0.value] })
    }
}
