import Foundation
import Testing

@testable import Storage

/// The pool's bound: never more connections than its maximum; a caller beyond them waits for one
/// to come back, or gets `.unavailable` (a 503) when none does in time.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.missingReason))
struct PostgresPoolTests {
    /// The backends connected to `database` right now, as PostgreSQL counts them.
    static func backends(of database: String) throws -> Int64 {
        try PostgresTestServer.connect().execute("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)'").integer(0, 0) ?? -1
    }

    @Test func aCallerBeyondTheBoundWaitsThenGetsUnavailable() throws {
        let url = try PostgresTestServer.freshDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        let pool = PostgresPool(url: url, maximum: 2, wait: 0.3)
        defer { pool.close() }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: done) {
                _ = try? pool.withConnection { connection in
                    _ = try connection.execute("SELECT 1")
                    holding.signal()
                    release.wait()
                }
            }
        }
        holding.wait()
        holding.wait()
        #expect(try Self.backends(of: database) == 2)
        let started = Date()
        #expect(throws: StoreError.self) { try pool.withConnection { _ in } }
        #expect(Date().timeIntervalSince(started) >= 0.25)
        #expect(try Self.backends(of: database) == 2)
        // One comes back while a caller waits: that caller gets it.
        let waited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let answered = try? pool.withConnection { connection in try connection.execute("SELECT 7").integer(0, 0) }
            #expect(answered == 7)
            waited.signal()
        }
        usleep(50_000)
        release.signal()
        #expect(waited.wait(timeout: .now() + 5) == .success)
        release.signal()
        done.wait()
        #expect(try Self.backends(of: database) <= 2)
    }
}
