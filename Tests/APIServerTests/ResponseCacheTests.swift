import Testing

@testable import APIServer
@testable import HTTPServer

@Suite("ResponseCache (pure)")
struct ResponseCacheTests {
    @Test func storedResponsesComeBackByTag() {
        let cache = ResponseCache()
        cache.store(Response.json(Array("a".utf8)), for: "\"l1\"")
        #expect(cache.lookup("\"l1\"")?.body == Array("a".utf8))
        #expect(cache.lookup("\"l2\"") == nil)
    }

    @Test func fullCacheDropsTheOldestHalf() {
        let cache = ResponseCache(maxEntries: 10, maxBytes: 1 << 20)
        for index in 0..<11 { cache.store(Response.json([UInt8(index)]), for: "t\(index)") }
        #expect(cache.count <= 6)
        #expect(cache.lookup("t10") != nil, "the newest entry survives")
        #expect(cache.lookup("t0") == nil, "the oldest entry is gone")
    }

    @Test func byteBudgetBoundsTheCache() {
        let cache = ResponseCache(maxEntries: 1_000, maxBytes: 16_000)
        for index in 0..<100 { cache.store(Response.json(Array(repeating: 1, count: 900)), for: "t\(index)") }
        #expect(cache.count * 900 <= 16_000)
        cache.store(Response.json(Array(repeating: 1, count: 2_000)), for: "huge")
        #expect(cache.lookup("huge") == nil, "a body over a sixteenth of the budget is not kept")
    }

    @Test func largeCacheIsShardedAndFindsEveryKey() {
        let cache = ResponseCache(maxEntries: 16_384, maxBytes: 1 << 30)
        #expect(cache.shardCount == ResponseCache.maximumShards)
        let keys = (0..<1_000).map { "products:7/\($0)|en-US" }
        for (index, key) in keys.enumerated() { cache.store(Response.json([UInt8(index % 256)]), for: key) }
        #expect(cache.count == 1_000, "no shard filled up")
        for (index, key) in keys.enumerated() { #expect(cache.lookup(key)?.body == [UInt8(index % 256)]) }
    }

    @Test func shardedCacheKeepsItsBounds() {
        let cache = ResponseCache(maxEntries: 2_048, maxBytes: 64_000)
        #expect(cache.shardCount > 1)
        for index in 0..<8_192 { cache.store(Response.json(Array(repeating: 1, count: 100)), for: "t\(index)") }
        #expect(cache.count <= 2_048)
        #expect(cache.count * 100 <= 64_000)
        #expect(cache.lookup("t8191") != nil, "the newest entry survives")
    }

    @Test func aKeptGzipFormCountsAgainstTheByteBudget() throws {
        let cache = ResponseCache(maxEntries: 100, maxBytes: 64_000)
        let kept = cache.store(Response.json(Array(repeating: 1, count: 3_000)), for: "t")
        #expect(cache.byteCount == 3_000)
        let box = try #require(kept.encodedBodies)
        box.keepGzip(Array(repeating: 2, count: 500))
        #expect(cache.byteCount == 3_500)
        // A concurrent first hit compressed the same body: counted once.
        box.keepGzip(Array(repeating: 2, count: 500))
        #expect(cache.byteCount == 3_500)
        cache.store(Response.json(Array(repeating: 1, count: 1_000)), for: "t")
        #expect(cache.byteCount == 1_000, "replacing the entry gives back its body and its gzip form")
    }

    @Test func gzipFormsTheBudgetCannotHoldEvict() {
        let cache = ResponseCache(maxEntries: 100, maxBytes: 16_000)
        let kept = (0..<10).map { cache.store(Response.json(Array(repeating: 1, count: 900)), for: "t\($0)") }
        #expect(cache.count == 10)
        for response in kept { response.encodedBodies?.keepGzip(Array(repeating: 2, count: 900)) }
        #expect(cache.byteCount <= 16_000)
        #expect(cache.count < 10)
    }

    @Test func smallCacheIsOneShard() {
        #expect(ResponseCache(maxEntries: 10, maxBytes: 1 << 20).shardCount == 1)
        #expect(ResponseCache(maxEntries: 0).shardCount == 1)
    }
}
