import Foundation
import Testing

@testable import Storage

/// The server's key cache against writes from another connection (`rowserver keys` runs in a
/// process of its own): whatever the other side commits is seen on the next lookup.
@Suite struct KeyCacheTests {
    static func record(_ id: String, revokedAt: Int64? = nil) -> APIKeyRecord {
        APIKeyRecord(id: id, name: id, secretHash: Array(repeating: 1, count: 32), scopes: ["read"], createdAt: 0, revokedAt: revokedAt)
    }

    /// How often `times` lookups of `id` through `cache` read the table of `store`.
    static func reads(of id: String, times: Int, _ cache: KeyCache, from store: KeyStore) throws -> Int {
        var reads = 0
        for _ in 0..<times {
            _ = try cache.key(id: id) { id throws(StoreError) in
                reads += 1
                return try store.key(id: id)
            }
        }
        return reads
    }

    @Test func aKeyIsReadOnceWhileTheFileDoesNotChange() throws {
        let directory = try TemporaryDirectory()
        let server = try directory.store().store.keys
        let other = try KeyStore(path: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        for _ in 0..<5 { #expect(try server.current(id: "aaaaaaaaaaaa")?.id == "aaaaaaaaaaaa") }
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 5, KeyCache(databasePath: directory.path("test.sqlite")), from: other) == 1)
    }

    /// What another connection commits, and what the next lookup must say.
    @Test(arguments: ["revoke", "create", "unrelated write"])
    func aCommitFromAnotherConnectionIsSeenAtTheNextLookup(change: String) throws {
        let directory = try TemporaryDirectory()
        let demo = try directory.store()
        let server = demo.store.keys
        let other = try KeyStore(path: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        #expect(try server.current(id: "aaaaaaaaaaaa")?.revokedAt == nil)
        #expect(try server.current(id: "bbbbbbbbbbbb") == nil)
        switch change {
        case "revoke":
            #expect(try other.revoke(id: "aaaaaaaaaaaa", at: 5))
            #expect(try server.current(id: "aaaaaaaaaaaa")?.revokedAt == 5)
        case "create":
            try other.add(Self.record("bbbbbbbbbbbb"))
            #expect(try server.current(id: "bbbbbbbbbbbb")?.id == "bbbbbbbbbbbb")
        default:
            try other.add(Self.record("cccccccccccc"))
            #expect(try server.current(id: "aaaaaaaaaaaa")?.revokedAt == nil)
            #expect(try server.current(id: "cccccccccccc")?.id == "cccccccccccc")
        }
    }

    @Test func entriesExpireEvenWhenTheFileLooksTheSame() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.store()
        let other = try KeyStore(path: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        let cache = KeyCache(databasePath: directory.path("test.sqlite"), maximumAge: 0)
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 3, cache, from: other) == 3)
    }

    /// A store whose key cache trusts a key for ten minutes, and another connection's key store
    /// on its file holding key `aaaaaaaaaaaa`. The directory is returned to be kept alive.
    static func keyedStore() throws -> (TemporaryDirectory, DemoStore, KeyCache, KeyStore) {
        let directory = try TemporaryDirectory()
        var options = CatalogStore.Options()
        options.keyCacheAge = 600
        let demo = try directory.store(options: options)
        let cache = try #require(demo.store.keys.cache)
        let other = try KeyStore(path: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        return (directory, demo, cache, other)
    }

    /// The server's cache is stamped with the commit counter, and its store's writer vouches for
    /// its own commits: catalog writes leave the cached keys, anyone else's commit does not.
    @Test func theWritersCommitsKeepTheKeysAndAnyOtherCommitEmptiesThem() async throws {
        let (directory, demo, cache, other) = try Self.keyedStore()
        defer { withExtendedLifetime(directory) {} }
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 2, cache, from: other) == 1)
        for index in 0..<3 { _ = try await demo.insert(.product(Fixtures.product("Lamp \(index)"))) }
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 2, cache, from: other) == 0)
        #expect(try other.revoke(id: "aaaaaaaaaaaa", at: 5))
        // The writer's next commit follows the revoke: it vouches for its own commit only.
        _ = try await demo.insert(.product(Fixtures.product("Lamp after")))
        #expect(try demo.store.keys.current(id: "aaaaaaaaaaaa")?.revokedAt == 5)
    }

    /// A batch whose writes were all refused wrote nothing and moved no counter: it vouches for
    /// no commit, or another process's next one (here a revoke) would pass for the writer's.
    @Test func aBatchThatWroteNothingVouchesForNoCommit() async throws {
        let (directory, demo, cache, other) = try Self.keyedStore()
        defer { withExtendedLifetime(directory) {} }
        let lamp = try await demo.insert(.product(Fixtures.product("Lamp")))
        try demo.store.applySearchBacklog()
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 2, cache, from: other) == 1)
        guard case .product(var product) = lamp.item else { return }
        product.name = "Lamp renamed"
        await #expect(throws: StoreError.versionMismatch(current: lamp.version)) {
            try await demo.update(.product(product), ifVersion: lamp.version + 100)
        }
        #expect(try other.revoke(id: "aaaaaaaaaaaa", at: 5))
        #expect(try demo.store.keys.current(id: "aaaaaaaaaaaa")?.revokedAt == 5)
    }

    @Test(arguments: [(5, 5, true), (5, 4, false), (5, 6, false), (UInt32.max, UInt32.max, true)])
    func aVouchMovesOnlyAStampAtItsCount(stamped: UInt32, vouched: UInt32, kept: Bool) throws {
        let directory = try TemporaryDirectory()
        _ = try directory.store()
        let other = try KeyStore(path: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        let counter = Locked<UInt32>(stamped)
        let cache = KeyCache(maximumAge: 60, maximumEntries: 10) { KeyCache.Stamp(commits: counter.withLock { $0 }) }
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 1, cache, from: other) == 1)
        cache.vouch(commitAfter: vouched)
        counter.withLock { $0 = stamped &+ 1 }
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 1, cache, from: other) == (kept ? 0 : 1))
    }

    @Test func aVouchLeavesAFileStampedCacheAlone() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.store()
        let other = try KeyStore(path: directory.path("test.sqlite"))
        let cache = KeyCache(databasePath: directory.path("test.sqlite"))
        try other.add(Self.record("aaaaaaaaaaaa"))
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 1, cache, from: other) == 1)
        cache.vouch(commitAfter: 0)
        try other.add(Self.record("bbbbbbbbbbbb"))
        #expect(try Self.reads(of: "aaaaaaaaaaaa", times: 1, cache, from: other) == 1)
    }

    @Test func aMissingFileHasAStampOfItsOwn() {
        #expect(KeyCache.stamp("/nonexistent/file") == KeyCache.FileStamp())
        #expect(KeyCache.stamp("/") != KeyCache.FileStamp())
    }
}
