import APIServer
import Definitions
import Domain
import Foundation
import HTTPServer
import HTTPTestSupport
import ServerTestSupport
import Storage
import Testing

/// `examples/tickets.yaml` with the same generated samples on SQLite and on PostgreSQL answers
/// with the same bytes: its lists in every sort, with sections, filters, searches and tables,
/// later pages, details, child lists and their feeds, tags included (issue #46's parity, for a
/// definition that is not the demo).
@Suite(.enabled(if: TestStore.postgresURLForProcesses != nil, "needs ROWSERVER_TEST_POSTGRES"), .runsOnce("compares both stores itself"))
struct TicketsParityTests {
    @Test func bothStoresAnswerEveryReadOfTheTicketsExampleWithTheSameBytes() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["ROWSERVER_TEST_POSTGRES"])
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/tickets.yaml")
        let catalog = try DefinitionLoader.load(path: path.standardized.path)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rowserver-tickets-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try CatalogStore(path: directory.appendingPathComponent("tickets.sqlite").path, catalog: catalog, options: .init())
        let postgres = try PostgresStore(url: try TestStore.newDatabase(url), catalog: catalog, options: .init(), connections: 4)
        defer {
            try? sqlite.close()
            postgres.close()
        }
        let generator = SampleGenerator(catalog: catalog, seed: 3, counts: ["agents": 6, "tickets": 40, "comments": 3])
        var samples: [(String, Item)] = []
        try generator.generate { collection, item in samples.append((collection.name, item)) }
        for store in [sqlite, postgres] as [any BulkLoadingStore] {
            _ = try store.bulkLoad { loader in
                for (collection, item) in samples { try loader.insert(item, into: collection) }
            }
        }
        let walked = try await StoreParityTests.compareWalks(
            sqlite, postgres, rowsFollowed: 1, most: 80,
            from: [
                "/v1", "/v1/agents?limit=4", "/v1/tickets?limit=7", "/v1/tickets?sort=-priority&limit=6", "/v1/tickets?sort=subject&limit=9",
                "/v1/tickets?sort=-due,subject&limit=5", "/v1/tickets?group=status&limit=8", "/v1/tickets?view=table&limit=6",
                "/v1/tickets?status=open,pending&limit=5", "/v1/tickets?priority=2&limit=5", "/v1/tickets?billable=true&limit=5",
                "/v1/tickets?q=a&limit=6", "/v1/tickets?q=zzzz", "/v1/tickets/changes?limit=4", "/v1/tickets/changes?group=status&limit=4",
                "/v1/agents/changes?limit=3",
                // Totals, section counts, estimates and the letter index: the same numbers from either store.
                "/v1/tickets?group=status&count=exact&limit=8", "/v1/tickets?status=open,pending&count=estimated&limit=5",
                "/v1/tickets?q=a&count=exact&limit=6", "/v1/tickets/changes?group=status&count=exact&limit=4", "/v1/tickets/index?sort=subject",
            ],
            more: { detail in detail.hasPrefix("/v1/tickets/") ? [detail + "/comments?limit=2", detail + "/comments/changes?limit=2"] : [] })
        #expect(walked.read > 40)
        #expect(walked.answered > 40, "the walk read pages, details and child lists, not errors")
    }
}
