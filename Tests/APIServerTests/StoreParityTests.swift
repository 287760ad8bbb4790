import APIServer
import Definitions
import DemoData
import Foundation
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

/// The same definition and data on SQLite and on PostgreSQL answer with the same bytes: every
/// list of the demo in its views, searches, later pages, details and feeds, tags included.
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("compares both stores itself"))
struct StoreParityTests {
    @Test func bothStoresAnswerEveryReadWithTheSameBytes() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["ROWSERVER_TEST_POSTGRES"])
        let catalog = try DefinitionLoader.demo()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try CatalogStore(
            path: directory.appendingPathComponent("parity.sqlite").path, catalog: catalog, options: .init(seedItems: DemoData.standardItems))
        let postgres = try PostgresStore(
            url: try TestStore.newDatabase(url), catalog: catalog, options: .init(seedItems: DemoData.standardItems), connections: 4)
        defer {
            try? sqlite.close()
            postgres.close()
        }
        let walked = try await Self.compareWalks(
            sqlite, postgres, rowsFollowed: 2, most: 60,
            from: [
                "/v1", "/v1/products?limit=7", "/v1/products?sort=-price&limit=5", "/v1/products?view=table&limit=5", "/v1/products?q=lamp",
                "/v1/products?q=a&limit=9", "/v1/products?q=%C3%A9", "/v1/people?group=department&limit=9", "/v1/people?view=table&limit=4",
                "/v1/people?department=x", "/v1/departments", "/v1/articles?limit=3", "/v1/documents?limit=3", "/v1/tracks?limit=3",
                "/v1/products?minPrice=USD:100.00&maxPrice=USD:900.00&limit=6", "/v1/products/changes?limit=3",
                "/v1/people/changes?group=department&limit=3",
            ])
        #expect(walked.read > 30)
    }

    /// Serves both stores (one token key, so cursors and tags match) and reads `targets` from
    /// each in German, expecting the same status, bytes and ETag; then the later pages and the
    /// details of the first `rowsFollowed` rows the lists link to (and `more` of a detail), at
    /// most `most` reads. How many it read, and how many of those answered 200.
    static func compareWalks(
        _ first: any ItemStore, _ second: any ItemStore, rowsFollowed: Int, most: Int, from targets: [String],
        more: (String) -> [String] = { _ in [] }
    ) async throws -> (read: Int, answered: Int) {
        let key = Application.newTokenKey()
        let one = try LiveApplication(store: first, tokenKey: key)
        let two = try LiveApplication(store: second, tokenKey: key)
        var targets = targets
        var index = 0
        var answered = 0
        while index < targets.count && index < most {
            let target = targets[index]
            index += 1
            let first = try await fetch(port: one.port, target, headers: [("Accept-Language", "de-DE")])
            let second = try await fetch(port: two.port, target, headers: [("Accept-Language", "de-DE")])
            #expect(first.status == second.status, "\(target)")
            #expect(first.text == second.text, "\(target)")
            #expect(first.header("ETag") == second.header("ETag"), "\(target)")
            if first.status == 200 { answered += 1 }
            guard target.hasPrefix("/v1/") && !target.contains("/changes") else { continue }
            let json = first.json
            if let next = (json?["links"] as? [String: Any])?["next"] as? String, !targets.contains(next) { targets.append(next) }
            for row in (json?["rows"] as? [[String: Any]] ?? []).prefix(rowsFollowed) {
                if let detail = row["detail"] as? String, !targets.contains(detail) { targets += [detail] + more(detail) }
            }
        }
        return (index, answered)
    }

}
