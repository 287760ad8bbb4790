import Foundation
import HTTPTestSupport
import Testing

/// Another process writing a running server's file (`rowserver import`): the server's next
/// answers show it, and nothing it kept (cached pages and details, list and detail tags, the
/// feed's "from now" token) outlives the commit.
@Suite("Commits by another process", .runsOnce("rowserver processes on SQLite files of their own"))
struct ExternalWriteTests {
    @Test func anImportIntoARunningServersFileShowsInItsNextAnswers() async throws {
        let server = try ServerProcess()
        let db = server.directory.appendingPathComponent("test.sqlite").path
        let port = server.port
        let list = "/v1/products?limit=5"
        let before = try await fetch(port: port, list)
        let tag = try #require(before.header("ETag"))
        // Kept: the second answer comes from the response cache, and the tag revalidates.
        #expect(try await fetch(port: port, list).body == before.body)
        #expect(try await fetch(port: port, list, headers: [("If-None-Match", tag)]).status == 304)
        let detail = try #require(Self.firstRow(before)?["detail"] as? String)
        let detailBefore = try await fetch(port: port, detail)
        let detailTag = try #require(detailBefore.header("ETag"))
        let feedBefore = try #require(try await fetch(port: port, "/v1/products/changes").json?["next"] as? String)

        // Sorted by name: "0…" comes before every demo product's name.
        let lines = #"{"name":"0 Imported lamp","shortDescription":"From a file","longDescription":"x","price":{"minorUnits":990,"currency":"USD"}}"#
        let file = server.directory.appendingPathComponent("import.jsonl")
        try Data((lines + "\n").utf8).write(to: file)
        let imported = try KeysCommandTests.run(["import", "products", file.path, "--db", db])
        #expect(imported.status == 0, "\(imported.error)")

        let after = try await fetch(port: port, list)
        #expect(after.status == 200)
        #expect(Self.firstRow(after)?["title"] as? String == "0 Imported lamp")
        let newTag = try #require(after.header("ETag"))
        #expect(newTag != tag)
        let revalidated = try await fetch(port: port, list, headers: [("If-None-Match", tag)])
        #expect(revalidated.status == 200, "the tag of the page before the import must not revalidate")
        // A detail the import did not touch keeps its tag.
        #expect(try await fetch(port: port, detail, headers: [("If-None-Match", detailTag)]).status == 304)
        // The feed from the token taken before the import names the imported product.
        let feed = try await fetch(port: port, "/v1/products/changes?since=\(feedBefore)")
        let changes = feed.json?["changes"] as? [[String: Any]] ?? []
        let upsert = try #require(changes.first { ($0["row"] as? [String: Any])?["title"] as? String == "0 Imported lamp" })
        let importedDetail = try #require((upsert["row"] as? [String: Any])?["detail"] as? String)
        #expect(try await fetch(port: port, importedDetail).json?["name"] as? String == "0 Imported lamp")
    }

    static func firstRow(_ response: HTTPResponse) -> [String: Any]? {
        (response.json?["rows"] as? [[String: Any]])?.first
    }
}
