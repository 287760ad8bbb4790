import Foundation
import HTTPTestSupport
import ServerTestSupport
import Testing

/// Three rowserver processes on one PostgreSQL database: a write through one shows on the others
/// within a second (the page, a new tag, the feed), and a cursor from one continues on another.
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("on PostgreSQL in every run"))
struct CrossInstanceTests {
    @Test func aWriteThroughOneInstanceShowsOnTheOthersWithinASecond() async throws {
        let database = try TestStore.newDatabase(try #require(TestStore.postgresURLForProcesses))
        let instances = try (0..<3).map { _ in try ServerProcess(arguments: ["--database", database]) }
        let (a, b, c) = (instances[0], instances[1], instances[2])
        let secret = try #require(
            try KeysCommandTests.run(["keys", "create", "--database", database, "--name", "cross", "--scope", "write"]).output
                .trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty)
        let list = "/v1/products?limit=3"
        var tags: [String] = []
        var tokens: [String] = []
        for instance in [b, c] {
            tags.append(try #require(try await fetch(port: instance.port, list).header("ETag")))
            tokens.append(try #require(try await fetch(port: instance.port, "/v1/products/changes").json?["next"] as? String))
        }
        // A cursor from A continues on B: the key that signs it is the database's.
        let firstPage = try await fetch(port: a.port, list)
        let next = try #require((firstPage.json?["links"] as? [String: Any])?["next"] as? String)
        let continued = try await fetch(port: b.port, next)
        #expect(continued.status == 200)
        #expect(continued.text == (try await fetch(port: a.port, next)).text)

        let created = try await fetch(
            port: a.port, "POST", "/v1/products", headers: [("Authorization", "Bearer \(secret)"), ("Content-Type", "application/json")],
            body: Array(#"{"name":"0 Written on A","price":{"minorUnits":100,"currency":"USD"}}"#.utf8))
        #expect(created.status == 201)
        let written = Date()
        for (offset, instance) in [b, c].enumerated() {
            var page = try await fetch(port: instance.port, list)
            while Self.firstTitle(page) != "0 Written on A" && Date().timeIntervalSince(written) < 1 {
                try await Task.sleep(for: .milliseconds(20))
                page = try await fetch(port: instance.port, list)
            }
            #expect(Self.firstTitle(page) == "0 Written on A", "instance \(offset + 1) within a second")
            #expect(try await fetch(port: instance.port, list, headers: [("If-None-Match", tags[offset])]).status == 200)
            let feed = try await fetch(port: instance.port, "/v1/products/changes?since=\(tokens[offset])")
            let titles = (feed.json?["changes"] as? [[String: Any]] ?? []).compactMap { ($0["row"] as? [String: Any])?["title"] as? String }
            #expect(titles == ["0 Written on A"])
        }
    }

    static func firstTitle(_ response: HTTPResponse) -> String? {
        (response.json?["rows"] as? [[String: Any]])?.first?["title"] as? String
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
