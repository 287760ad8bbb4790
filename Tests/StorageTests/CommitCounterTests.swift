import Domain
import Testing

@testable import Storage

/// SQLite's shared commit counter as the store reads it: one step per commit by any connection,
/// and versions read again when another connection committed.
@Suite struct CommitCounterTests {
    @Test func theCounterMovesOncePerCommitOfAnyConnection() async throws {
        let directory = try TemporaryDirectory()
        let served = try directory.store()
        let other = try directory.store()
        let start = served.store.commits.value
        _ = try await other.insert(.product(Fixtures.product()))
        #expect(served.store.commits.value == start &+ 1)
        _ = try await served.insert(.product(Fixtures.product("Floor Lamp")))
        #expect(served.store.commits.value == start &+ 2)
        #expect(other.store.commits.value == start &+ 2, "one counter per file, whichever connection reads it")
    }

    @Test func versionsFollowAnotherStoresCommits() async throws {
        let directory = try TemporaryDirectory()
        let served = try directory.store()
        let other = try directory.store()
        #expect(try served.version(of: .products) == 0)
        let written = try await other.insert(.product(Fixtures.product()))
        #expect(try served.version(of: .products) == written.version)
        #expect(try served.latestSequence() == written.version)
        // Its own write next: numbered after the other's, and known without reading the file.
        let own = try await served.insert(.product(Fixtures.product("Floor Lamp")))
        #expect(own.version == written.version + 1)
        #expect(served.store.state.withLock { $0.stamp } == UInt64(served.store.commits.value))
        #expect(try served.version(of: .products) == own.version)
    }
}
