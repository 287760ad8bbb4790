import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// `rowserver generate` and `rowserver import` into a PostgreSQL database: all of it or nothing,
/// and a running instance's next answers show what they wrote (its listener hears the commit).
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("on PostgreSQL in every run"))
struct PostgresCommandTests {
    @Test func generateFillsANewDatabaseOnceAndASecondRunWritesNothing() async throws {
        let database = try TestStore.newDatabase(try #require(TestStore.postgresURLForProcesses))
        let counts = [
            "--products", "120", "--departments", "2", "--people", "5", "--articles", "1", "--documents", "1", "--tracks", "1", "--samples", "2",
        ]
        // The test server trusts every local connection: a password in the URL is accepted, and
        // what the command prints must not show it.
        let withPassword = database.replacingOccurrences(of: "://postgres@", with: "://postgres:s3cret@")
        #expect(withPassword != database)
        let generated = try KeysCommandTests.run(["generate", "--database", withPassword] + counts)
        #expect(generated.status == 0, "\(generated.error)")
        #expect(generated.error.contains("postgres:***@"), "\(generated.error)")
        #expect(!(generated.output + generated.error).contains("s3cret"))
        let again = try KeysCommandTests.run(["generate", "--database", database] + counts)
        #expect(again.status != 0)
        #expect(again.error.contains("nothing was written"), "\(again.error)")
        let server = try ServerProcess(arguments: ["--database", database])
        var seen = 0
        var target: String? = "/v1/products?limit=50"
        while let path = target {
            let page = try await fetch(port: server.port, path)
            seen += (page.json?["rows"] as? [[String: Any]])?.count ?? 0
            target = (page.json?["links"] as? [String: Any])?["next"] as? String
        }
        #expect(seen == 120)
        let people = try await fetch(port: server.port, "/v1/people?limit=50")
        #expect((people.json?["rows"] as? [[String: Any]])?.count == 5)
    }

    @Test func anImportIntoTheDatabaseShowsOnARunningInstance() async throws {
        let database = try TestStore.newDatabase(try #require(TestStore.postgresURLForProcesses))
        let server = try ServerProcess(arguments: ["--database", database])
        let list = "/v1/products?limit=3"
        let before = try await fetch(port: server.port, list)
        let tag = try #require(before.header("ETag"))
        let file = server.directory.appendingPathComponent("import.jsonl")
        let lines = [
            #"{"name":"0 Imported lamp","shortDescription":"From a file","longDescription":"x","price":{"minorUnits":990,"currency":"USD"}}"#,
            #"{"name":"0 Imported desk","shortDescription":"From a file","longDescription":"x","price":{"minorUnits":12990,"currency":"USD"}}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let imported = try KeysCommandTests.run(["import", "products", file.path, "--database", database])
        #expect(imported.status == 0, "\(imported.error)")
        // Within a second on a quiet machine (CrossInstanceTests holds that bound); in the full
        // suite this polling is starved for seconds, so it waits longer before it judges.
        let written = Date()
        var page = try await fetch(port: server.port, list)
        while CrossInstanceTests.firstTitle(page) != "0 Imported desk" && Date().timeIntervalSince(written) < 10 {
            try await Task.sleep(for: .milliseconds(20))
            page = try await fetch(port: server.port, list)
        }
        let titles = (page.json?["rows"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Array(titles.prefix(2)) == ["0 Imported desk", "0 Imported lamp"])
        #expect(try await fetch(port: server.port, list, headers: [("If-None-Match", tag)]).status == 200)

        // A file with a bad line imports nothing.
        try Data((#"{"name":"0 Never"}"# + "\n").utf8).write(to: file)
        let refused = try KeysCommandTests.run(["import", "products", file.path, "--database", database])
        #expect(refused.status != 0)
        #expect(refused.error.contains("nothing was imported"), "\(refused.error)")
        let after = try await fetch(port: server.port, "/v1/products?q=Never")
        #expect((after.json?["rows"] as? [[String: Any]])?.isEmpty == true)
    }
}
