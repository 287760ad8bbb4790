import HTTPServer
import Testing

@testable import APIServer

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
}
