import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// A PostgreSQL store's backup is PostgreSQL's own: `pg_dump`, then `pg_restore` into a new
/// database, which then serves the same pages (the cursor key travels with the data).
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("on PostgreSQL in every run"))
struct PostgresDumpTests {
    @Test func aDumpRestoredIntoANewDatabaseServesTheSamePages() async throws {
        let url = try #require(TestStore.postgresURLForProcesses)
        let original = try TestStore.newDatabase(url)
        let source = try ServerProcess(arguments: ["--database", original])
        let dump = source.directory.appendingPathComponent("rowserver.dump").path
        #expect(try Self.run("pg_dump", ["-Fc", "-d", original, "-f", dump]) == 0)
        let copy = try TestStore.newDatabase(url)
        #expect(try Self.run("pg_restore", ["--no-owner", "-d", copy, dump]) == 0)
        let restored = try ServerProcess(arguments: ["--database", copy])
        var targets = ["/v1/products?limit=5", "/v1/people?group=department&limit=5", "/v1/products?q=lamp", "/v1/products/changes?limit=2"]
        let first = try await fetch(port: source.port, targets[0])
        if let next = (first.json?["links"] as? [String: Any])?["next"] as? String { targets.append(next) }
        #expect(targets.count == 5)
        for target in targets {
            let a = try await fetch(port: source.port, target)
            let b = try await fetch(port: restored.port, target)
            #expect(a.status == 200)
            #expect(a.text == b.text, "\(target)")
            #expect(a.header("ETag") == b.header("ETag"), "\(target)")
        }
    }

    /// Runs one of PostgreSQL's programs; its exit status.
    static func run(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
